/// Where a store keeps its state between launches: one document per store, named by a key.
///
/// A store loads its value once at init, then changes it through ``update(_:forKey:default:_:)``,
/// which re-reads the current document under an exclusive lock, applies a pure transform and
/// writes the result back, so two processes (or two instances) changing the same store at once
/// lose no update. The store adopts the committed value, then posts it after the call returns.
///
/// Stores rarely call a storage directly: ``PersistentStoreCore`` does the loading, the locked
/// updates, the posting and the problem reporting:
///
/// ```swift
/// let persisted = PersistentStoreCore(
///     key: "settings", default: Settings(), storage: FileStorage(), channel: .settings)
/// try persisted.update { $0.fontSize = 17 }
/// ```
///
/// Bad documents are never overwritten and never deleted: a corrupted, unreadable or
/// newer-format document is moved aside, the store starts from the default, and the problem
/// comes back as the ``StorageLoad/recovery`` or ``StorageUpdate/recovery`` of the call.
/// Errors are thrown only when nothing could be done (see ``StorageError``); a document that
/// merely could not be read this time (permission denied, no free file descriptor, a disk
/// error) is left in place and the call throws.
///
/// Reads never wait for a writer. A write that finds the document locked by another process
/// waits a bounded time (``FileStorage/lockTimeout``), then throws
/// ``StorageError/lockTimedOut(file:holder:waited:)`` having changed nothing.
///
/// A storage keeps what the value's type encodes, nothing more: fields a document carries that
/// this version's type does not know (added by a newer version of the app) are dropped when the
/// document is rewritten. To keep older versions from rewriting such documents, raise the
/// storage's format version (``FileStorage/formatVersion``).
///
/// Conforming types: ``FileStorage`` (production) and ``InMemoryStorage`` (tests).
public protocol StoreStorage: Sendable {
    /// Reads the value stored under `key`, or `defaultValue` when there is none.
    ///
    /// A bad document is moved aside and reported in ``StorageLoad/recovery``; the value is
    /// then the default. Throws ``StorageError/invalidKey(_:reason:)`` for a bad key, or an
    /// error when the document could not be read or a bad document could not be moved aside
    /// (it is left untouched).
    func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value
    ) throws(StorageError) -> StorageLoad<Value>

    /// Replaces the value stored under `key` with `value`.
    ///
    /// Returns the problem with the previous document, if it was bad and had to be moved
    /// aside first; `nil` otherwise.
    @discardableResult
    func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String
    ) throws(StorageError) -> StorageError?

    /// Re-reads the document under `key` under an exclusive lock, lets `body` change it, and
    /// writes it back if it changed.
    ///
    /// - Parameters:
    ///   - type: The stored value's type.
    ///   - key: The store name.
    ///   - defaultValue: The value to start from when there is no usable document.
    ///   - body: A transform of the value, run exactly once while the document is locked. It
    ///     must not call observers or post notifications (the caller posts after `update`
    ///     returns), and must not touch this key again (that would wait for its own lock). It
    ///     may read or update *other* keys of the same storage when a decision spans two
    ///     documents, provided every caller takes such nested keys in one fixed order (say,
    ///     always `cart` before `wallet`). To refuse a change, leave the value
    ///     as it is and return the reason: an unchanged value is not rewritten. If `body`
    ///     throws, nothing is written and the error is rethrown.
    /// - Returns: The committed value, what `body` returned, and any bad document that was
    ///   moved aside before `body` ran.
    @discardableResult
    func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>

    /// Like ``update(_:forKey:default:_:)``, but never waits: when another process holds the
    /// document's lock, returns `nil` at once and `body` does not run.
    ///
    /// For work that can wait for a later launch or write, such as crediting a purchase an
    /// earlier run left unfinished, so that a launch never waits on another process. The
    /// default implementation calls ``update(_:forKey:default:_:)``.
    @discardableResult
    func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>?

    /// Like ``load(_:forKey:default:)``, for a value with ``DocumentMigrations``: a document of
    /// an older version of the value is migrated (a storage of files backs it up and rewrites
    /// it), one of a newer version is kept aside, and one whose migration fails is left in place
    /// and reported as ``StorageError/migrationFailed(file:from:failedStep:reason:)`` in
    /// ``StorageLoad/recovery``, the value being the default.
    ///
    /// The default implementation ignores `migrations` and calls ``load(_:forKey:default:)``:
    /// a storage that keeps typed values, such as ``InMemoryStorage``, has nothing to migrate.
    func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageLoad<Value>

    /// Like ``save(_:forKey:)``, for a value with ``DocumentMigrations``: the document records
    /// the current version. Throws ``StorageError/migrationFailed(file:from:failedStep:reason:)``,
    /// writing nothing, when the document in place can't be migrated.
    ///
    /// The default implementation ignores `migrations` and calls ``save(_:forKey:)``.
    @discardableResult
    func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageError?

    /// Like ``update(_:forKey:default:_:)``, for a value with ``DocumentMigrations``: `body`
    /// sees the document migrated to the current version, and the document written records
    /// it. Throws ``StorageError/migrationFailed(file:from:failedStep:reason:)``, running and
    /// writing nothing, when the document in place can't be migrated.
    ///
    /// The default implementation ignores `migrations` and calls ``update(_:forKey:default:_:)``.
    @discardableResult
    func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>

    /// Like ``updateIfAvailable(_:forKey:default:_:)``, for a value with
    /// ``DocumentMigrations`` (see ``update(_:forKey:default:migrations:_:)``).
    ///
    /// The default implementation ignores `migrations` and calls
    /// ``updateIfAvailable(_:forKey:default:_:)``.
    @discardableResult
    func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>?

    /// Follows the document under `key`: `onChange` runs after another process, or another
    /// storage instance, may have committed a new version of it, until the returned watch is
    /// cancelled or released.
    ///
    /// `onChange` says only that something may have changed: read the document to see what.
    /// It may also run after this storage's own writes. It runs on a thread of the storage's
    /// choosing, with no lock held.
    ///
    /// The default implementation watches nothing and returns `nil`; ``FileStorage`` watches.
    ///
    /// - Parameters:
    ///   - key: The store name.
    ///   - watching: How to follow the document; `.off` returns `nil`.
    ///   - onChange: Called after each change seen.
    /// - Returns: The watch, or `nil` when this storage does not watch.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad key.
    func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch?
}

extension StoreStorage {
    /// Runs ``update(_:forKey:default:_:)``: a storage without locks of its own never has to wait.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try update(type, forKey: key, default: defaultValue(), body)
    }

    /// Calls ``load(_:forKey:default:)``: a storage of typed values has nothing to migrate.
    public func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageLoad<Value> {
        try load(type, forKey: key, default: defaultValue())
    }

    /// Calls ``save(_:forKey:)``: a storage of typed values has nothing to migrate.
    @discardableResult
    public func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageError? {
        try save(value, forKey: key)
    }

    /// Calls ``update(_:forKey:default:_:)``: a storage of typed values has nothing to migrate.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        try update(type, forKey: key, default: defaultValue(), body)
    }

    /// Calls ``updateIfAvailable(_:forKey:default:_:)``: a storage of typed values has nothing
    /// to migrate.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try updateIfAvailable(type, forKey: key, default: defaultValue(), body)
    }

    /// Watches nothing: a storage without its own `watch` does not follow other writers.
    public func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        nil
    }
}
