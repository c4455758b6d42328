import Stores

/// The data folder demo-cli was given: `--data-dir`, else `$SINGLETON_STORES_DATA_DIR`, with a
/// leading `~` expanded the way a shell would have.
///
/// A shell expands `~` only at the start of a word, so `--data-dir=~/demo` and a `~` inside
/// quotes or an environment variable reach the program as they are. demo-cli expands them
/// itself:
///
/// ```swift
/// let folder = try DataFolderPath.resolve(option: "~/demo", environment: ["HOME": "/home/aki"])
/// // "/home/aki/demo"
/// ```
///
/// - `~` alone and `~/…` use `$HOME` (which must be an absolute path);
/// - `~name` (another user's home folder) is refused with a usage error: give the full path;
/// - a `~` anywhere but at the start is an ordinary character.
enum DataFolderPath {
    /// The folder to use: the expanded `option` if given, else the expanded environment
    /// variable if set and not empty, else `nil` (the per-user data folder).
    ///
    /// - Throws: ``UsageError`` for `~name`, or for `~` when `$HOME` is not an absolute path.
    static func resolve(option: String?, environment: [String: String]) throws(UsageError) -> String? {
        if let option {
            return try expandingTilde(in: option, from: "--data-dir", environment: environment)
        }
        let variable = FileStorage.environmentVariable
        guard let value = environment[variable], !value.isEmpty else { return nil }
        return try expandingTilde(in: value, from: variable, environment: environment)
    }

    /// `path` with a leading `~` or `~/` replaced by `$HOME`.
    ///
    /// - Parameter source: Where the path came from, for the error message.
    static func expandingTilde(in path: String, from source: String, environment: [String: String]) throws(UsageError) -> String {
        guard path.hasPrefix("~") else { return path }
        let rest = path.dropFirst()
        guard rest.isEmpty || rest.hasPrefix("/") else {
            let name = rest.prefix { $0 != "/" }
            throw UsageError(
                "\(source) '~\(name)': another user's home folder is not supported; give the full path")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw UsageError("\(source) starts with '~' but HOME is not an absolute path; give the full path")
        }
        guard !rest.isEmpty else { return home }
        // "/home/aki/" + "/demo" and "/" + "/demo" would make a double slash.
        var base = Substring(home)
        while base.hasSuffix("/") { base = base.dropLast() }
        return String(base + rest)
    }
}
