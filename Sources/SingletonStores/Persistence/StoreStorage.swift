/// Where a store keeps its state between launches: one document per store, named by a key.
///
/// A store names its document once, as a ``StoreDocument`` (key, default value, migrations), and
/// every call takes it. The store loads its value once at init, then changes it through
/// ``update(_:_:)``,
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
/// Bad documents are never overwritten and never deleted: a corrupted or unreadable document is
/// moved aside, the store starts from the default, and the problem comes back as the
/// ``StorageLoad/recovery`` or ``StorageUpdate/recovery`` of the call. A document this store
/// may not use — written by a newer version of the app, or by another store (see
/// ``StoreDocument/identity``) — is left in place, unchanged: `load` returns the default and
/// reports it, and every write throws it.
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
///
/// ## A storage of your own
/// Implement ``load(_:)``, ``save(_:to:)`` and ``update(_:_:)``; ``updateIfAvailable(_:_:)``
/// (when your storage has locks another process may hold) and
/// ``watch(forKey:_:onChange:)`` (when it can follow other writers) have default
/// implementations. Call ``StoreDocument/validKey()`` before you use a document's key.
///
/// A storage written for an earlier version implements the key-based requirements
/// (``load(_:forKey:default:)``, ``save(_:forKey:)``, ``update(_:forKey:default:_:)``), now
/// deprecated: it still compiles, the document-based requirements call its methods through
/// their default implementations, and the compiler says which of them to write instead. Each of
/// the two sets has default implementations that call the other, so implement one of them
/// whole: a storage that implements neither calls itself until the stack runs out.
public protocol StoreStorage: Sendable {
    /// Reads `document`, or its default value when there is none.
    ///
    /// A bad document is moved aside and reported in ``StorageLoad/recovery``; the value is
    /// then the default. One of a newer version of the app (its format, or its value's version
    /// above the document's ``StoreDocument/migrations``), or one another store wrote, is left
    /// in place and reported there
    /// (``StorageError/newerFormatLeftInPlace(file:found:supported:)``,
    /// ``StorageError/newerValueVersionLeftInPlace(file:found:supported:)``,
    /// ``StorageError/documentOfAnotherStore(file:owner:store:)``), the value being the default.
    /// With migrations, a document of an older version of the value is migrated (a storage of
    /// files backs it up and rewrites it), and one whose migration fails is left in place and
    /// reported as ``StorageError/migrationFailed(file:from:failedStep:reason:)``. Throws
    /// ``StorageError/invalidKey(_:reason:)`` for a bad key, or an error when the document
    /// could not be read or a bad document could not be moved aside (it is left untouched).
    func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError) -> StorageLoad<Value>

    /// Replaces what `document` holds with `value`.
    ///
    /// With ``StoreDocument/migrations``, the document records the current version; throws
    /// ``StorageError/migrationFailed(file:from:failedStep:reason:)``, writing nothing, when the
    /// document in place can't be migrated. Throws, writing nothing, when the document in place
    /// is one this store may not change: see ``load(_:)``.
    ///
    /// - Returns: The problem with the previous document, if it was bad and had to be moved
    ///   aside first; `nil` otherwise.
    @discardableResult
    func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) throws(StorageError)
        -> StorageError?

    /// Re-reads `document` under an exclusive lock, lets `body` change it, and writes it back if
    /// it changed.
    ///
    /// - Parameters:
    ///   - document: The document, and the value to start from when there is no usable one.
    ///     With ``StoreDocument/migrations``, `body` sees the document migrated to the current
    ///     version, and the document written records it; when the document in place can't be
    ///     migrated, the call throws ``StorageError/migrationFailed(file:from:failedStep:reason:)``,
    ///     running and writing nothing. So it does, with the error ``load(_:)`` reports, for a
    ///     document this store may not change (a newer version of the app's, another store's).
    ///   - body: A transform of the value, run exactly once while the document is locked. It
    ///     must not call observers or post notifications (the caller posts after `update`
    ///     returns), and must not touch this document again (that would wait for its own lock).
    ///     It may read or update *other* documents of the same storage when a decision spans
    ///     two, provided every caller takes such nested documents in one fixed order (say,
    ///     always `cart` before `wallet`). To refuse a change, leave the value as it is and
    ///     return the reason: an unchanged value is not rewritten. If `body` throws, nothing is
    ///     written and the error is rethrown.
    /// - Returns: The committed value, what `body` returned, and any bad document that was
    ///   moved aside before `body` ran.
    @discardableResult
    func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>

    /// Like ``update(_:_:)``, but never waits: when another process holds the document's lock,
    /// returns `nil` at once and `body` does not run.
    ///
    /// For work that can wait for a later launch or write, such as crediting a purchase an
    /// earlier run left unfinished, so that a launch never waits on another process. The
    /// default implementation calls ``update(_:_:)``.
    @discardableResult
    func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
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

    /// Reads the value stored under `key`, or `defaultValue` when there is none.
    ///
    /// A requirement of earlier versions, kept so that a storage written for them still
    /// compiles; its default implementation calls ``load(_:)``.
    @available(*, deprecated, message: "call load(_:) with a StoreDocument(key:default:)")
    func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value
    ) throws(StorageError) -> StorageLoad<Value>

    /// Replaces the value stored under `key` with `value`.
    ///
    /// A requirement of earlier versions, kept so that a storage written for them still
    /// compiles; its default implementation calls ``save(_:to:)``.
    @available(*, deprecated, message: "call save(_:to:) with a StoreDocument(key:default:)")
    @discardableResult
    func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String
    ) throws(StorageError) -> StorageError?

    /// Re-reads the document under `key` under an exclusive lock, lets `body` change it, and
    /// writes it back if it changed.
    ///
    /// A requirement of earlier versions, kept so that a storage written for them still
    /// compiles; its default implementation calls ``update(_:_:)``.
    @available(*, deprecated, message: "call update(_:_:) with a StoreDocument(key:default:)")
    @discardableResult
    func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>
}

extension StoreStorage {
    /// Runs ``update(_:_:)``: a storage without locks of its own never has to wait.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try update(document, body)
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

/// The requirements of a storage written for an earlier version, which implements the key-based
/// ones: each document-based requirement calls the key-based one (ignoring migrations, which such
/// a storage never took), and each key-based one the document-based one.
extension StoreStorage {
    /// Calls ``load(_:forKey:default:)``, for a storage written for an earlier version.
    @available(*, deprecated, message: "implement load(_: StoreDocument<Value>) in place of load(_:forKey:default:)")
    public func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError)
        -> StorageLoad<Value>
    {
        try load(Value.self, forKey: document.key, default: document.defaultValue)
    }

    /// Calls ``save(_:forKey:)``, for a storage written for an earlier version.
    @available(*, deprecated, message: "implement save(_:to:) in place of save(_:forKey:)")
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) throws(StorageError)
        -> StorageError?
    {
        try save(value, forKey: document.key)
    }

    /// Calls ``update(_:forKey:default:_:)``, for a storage written for an earlier version.
    @available(*, deprecated, message: "implement update(_: StoreDocument<Value>, _:) in place of update(_:forKey:default:_:)")
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        try update(Value.self, forKey: document.key, default: document.defaultValue, body)
    }

    /// Calls ``load(_:)``.
    @available(*, deprecated, message: "call load(_:) with a StoreDocument(key:default:)")
    public func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value
    ) throws(StorageError) -> StorageLoad<Value> {
        try load(StoreDocument(key: key, default: defaultValue()))
    }

    /// Calls ``save(_:to:)``.
    @available(*, deprecated, message: "call save(_:to:) with a StoreDocument(key:default:)")
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, forKey key: String) throws(StorageError) -> StorageError? {
        try save(value, to: StoreDocument(key: key, default: value))
    }

    /// Calls ``update(_:_:)``.
    @available(*, deprecated, message: "call update(_:_:) with a StoreDocument(key:default:)")
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        try update(StoreDocument(key: key, default: defaultValue()), body)
    }

    /// Calls ``load(_:)`` with a document that has `migrations`.
    @available(*, deprecated, message: "call load(_:) with a StoreDocument(key:default:migrations:)")
    public func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageLoad<Value> {
        try load(StoreDocument(key: key, default: defaultValue(), migrations: migrations))
    }

    /// Calls ``save(_:to:)`` with a document that has `migrations`.
    @available(*, deprecated, message: "call save(_:to:) with a StoreDocument(key:default:migrations:)")
    @discardableResult
    public func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String,
        migrations: DocumentMigrations<Value>
    ) throws(StorageError) -> StorageError? {
        try save(value, to: StoreDocument(key: key, default: value, migrations: migrations))
    }

    /// Calls ``update(_:_:)`` with a document that has `migrations`.
    @available(*, deprecated, message: "call update(_:_:) with a StoreDocument(key:default:migrations:)")
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        try update(StoreDocument(key: key, default: defaultValue(), migrations: migrations), body)
    }

    /// Calls ``updateIfAvailable(_:_:)`` with a document that has `migrations`, if any.
    @available(*, deprecated, message: "call updateIfAvailable(_:_:) with a StoreDocument")
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>? = nil,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try updateIfAvailable(StoreDocument(key: key, default: defaultValue(), migrations: migrations), body)
    }
}
