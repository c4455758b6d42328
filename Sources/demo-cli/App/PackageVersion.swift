/// The version of the SingletonStores package this demo-cli belongs to, as `--version` prints it.
///
/// Raise it with each release: a test checks it against the newest released version in
/// CHANGELOG.md.
enum PackageVersion {
    /// The package's version.
    static let current = "0.2.0"
}
