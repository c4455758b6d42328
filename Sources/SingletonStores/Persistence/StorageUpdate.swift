/// What a locked read-modify-write committed.
///
/// ```swift
/// let update = try storage.update(StoreDocument(key: "purchases", default: Ledger())) {
///     $0.spend(.boost)                        // returns false when there is none to spend
/// }
/// state.withLock { $0 = update.value }      // adopt what is on disk now
/// if update.outcome { post(update.value) }  // post after every lock is released
/// ```
public struct StorageUpdate<Value, Outcome> {
    /// The value as committed: the current document after the body changed it.
    public var value: Value

    /// What the body returned.
    public var outcome: Outcome

    /// Whether a new document was written (`false` when the body left the value unchanged).
    public var didWrite: Bool

    /// The bad document that was moved aside before the body ran, if any; the body then
    /// started from the default.
    public var recovery: StorageError?

    /// Creates an update result.
    public init(value: Value, outcome: Outcome, didWrite: Bool, recovery: StorageError? = nil) {
        self.value = value
        self.outcome = outcome
        self.didWrite = didWrite
        self.recovery = recovery
    }
}

extension StorageUpdate: Sendable where Value: Sendable, Outcome: Sendable {}
extension StorageUpdate: Equatable where Value: Equatable, Outcome: Equatable {}
