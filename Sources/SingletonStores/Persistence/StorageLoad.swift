/// The value a store starts from, and whether a bad document had to be moved aside to get it.
///
/// ```swift
/// let loaded = try storage.load(StoreDocument(key: "settings", default: Settings()))
/// let core = StoreCore(loaded.value, channel: .settings)
/// if let problem = loaded.recovery { report(problem) }   // after init, outside any lock
/// ```
///
/// ``PersistentStoreCore`` does exactly this for a store.
public struct StorageLoad<Value> {
    /// The stored value, or the default when there was no usable document.
    public var value: Value

    /// Whether ``value`` was read from a stored document (`false`: it is the default).
    public var isStored: Bool

    /// The bad document that was moved aside before falling back to the default, or the
    /// document that was left in place because this store may not use it, if any.
    ///
    /// Moved aside: ``StorageError/corrupted(file:keptAt:reason:)`` or
    /// ``StorageError/unreadable(file:keptAt:reason:)``. Left in place, unchanged, and refused to
    /// every write: ``StorageError/newerFormatLeftInPlace(file:found:supported:)`` and
    /// ``StorageError/newerValueVersionLeftInPlace(file:found:supported:)`` (a newer version of
    /// the app wrote it), ``StorageError/documentOfAnotherStore(file:owner:store:)`` (another
    /// store wrote it), or ``StorageError/migrationFailed(file:from:failedStep:reason:)``. A store
    /// that falls back to defaults after `load` threw may record the thrown error here too, to
    /// report one problem.
    public var recovery: StorageError?

    /// Creates a load result.
    public init(value: Value, isStored: Bool, recovery: StorageError? = nil) {
        self.value = value
        self.isStored = isStored
        self.recovery = recovery
    }
}

extension StorageLoad: Sendable where Value: Sendable {}
extension StorageLoad: Equatable where Value: Equatable {}
