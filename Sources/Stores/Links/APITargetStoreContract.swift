/// Which server environment links and requests go to.
///
/// Production code reads the persisted choice through ``APITargetStore``; tests pass an
/// ``APITargetStoreStub``.
public protocol APITargetStoreContract: Sendable {
    /// The selected environment.
    var target: APITarget { get }
}
