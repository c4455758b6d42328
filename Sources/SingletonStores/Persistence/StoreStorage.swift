import Foundation

/// Where stores keep their documents between launches: a place for **bytes** under a key, with
/// an exclusive transaction and a way to hear another writer's changes.
///
/// A storage holds one document per store, named by the store's key. It knows nothing of the
/// values inside: everything above the bytes — the envelope a document is written in, coding,
/// migrations and their backups, which store a document belongs to, what a bad document is and
/// how it is reported — lives once, in the methods every storage gets from this protocol:
/// ``load(_:)``, ``save(_:to:)``, ``update(_:_:)`` and ``updateIfAvailable(_:_:)``. A store
/// calls those, with its ``StoreDocument``:
///
/// ```swift
/// let persisted = PersistentStoreCore(
///     key: "settings", default: Settings(), storage: FileStorage(), channel: .settings)
/// try persisted.update { $0.fontSize = 17 }
/// ```
///
/// Two storages come with the library: ``FileStorage`` (production: one file per document) and
/// ``InMemoryStorage`` (tests and previews). <doc:AStorageOfYourOwn> shows how to write another —
/// one that changes the bytes of a ``FileStorage`` on their way (to seal them, say), or keeps
/// them somewhere else — and how to check it in one line with `StorageConformance.check`, from
/// the SingletonStoresTesting library.
///
/// ## What a storage promises
/// - ``read(_:)`` never waits for a writer, and returns bytes that some transaction committed
///   whole (never half of one).
/// - ``transaction(_:waits:_:)`` runs its body while no other transaction of the same key runs
///   — in this process or, for a storage shared between processes, in any other — and commits
///   what the body decided as one durable step: after a crash, the next read finds all of it or
///   none of it.
/// - ``watch(forKey:_:onChange:)`` calls back after another writer may have committed.
///
/// Bad documents are never overwritten and never deleted: the document layer asks the storage
/// to set one aside (``DocumentChange/settingAside``) and reports where it went.
public protocol StoreStorage: Sendable {
    /// The bytes of the document under `key`, without waiting for a writer; `nil` when there is
    /// none.
    ///
    /// - Parameter key: A valid store key (see ``StoreStorage/validKey(_:)``).
    /// - Returns: What some transaction committed last, whole. A document that is there but
    ///   can't be read as bytes (a folder in its place, a file too large to read) comes back
    ///   with its ``StoredBytes/damage``, to be set aside.
    /// - Throws: When the document could not be read this time (permission denied, an I/O
    ///   error); it is left as it is.
    func read(_ key: String) throws(StorageError) -> StoredBytes?

    /// Runs `body` with the current bytes of the document under `key` while holding the key's
    /// exclusive lock, then commits what `body` decided, durably, before it returns.
    ///
    /// - Parameters:
    ///   - key: A valid store key.
    ///   - waits: Whether to wait (a bounded time of the storage's choosing) when another
    ///     writer holds the lock. When `false` and the lock is held, returns `nil` at once and
    ///     `body` does not run.
    ///   - body: Decides the change from the current bytes (`nil`: no document). It must not
    ///     touch this key again (that would wait for its own lock); it may run transactions of
    ///     *other* keys of the same storage, always in one fixed order. It may run again when
    ///     the storage had to start over (a lock lost before the commit): it must decide from
    ///     what it is given, each time.
    /// - Returns: What `body` returned, and where a document set aside went; `nil` only when
    ///   `waits` is `false` and the lock was held.
    /// - Throws: What `body` threw (nothing is committed), or why the change could not be
    ///   committed (nothing is changed).
    func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>?

    /// Follows the document under `key`: `onChange` runs after another process, or another
    /// storage instance, may have committed a new version of it, until the returned watch is
    /// cancelled or released.
    ///
    /// `onChange` says only that something may have changed: read the document to see what.
    /// It may also run after this storage's own writes, on a thread of the storage's choosing,
    /// with no lock held. A storage that can't follow other writers returns `nil`.
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

    /// Where the document under `key` is, named as every storage that reaches that document
    /// names it (a ``FileStorage`` gives its file); `nil` when this storage can't say.
    ///
    /// The stores of a process claim their documents by it: a store is refused a document that a
    /// live store of another identity holds, before either reads it
    /// (``StorageError/documentOfAnotherStore(file:owner:store:)``). A storage that keeps its
    /// documents in another storage — one that adds logging or encryption around a
    /// ``FileStorage``, say — returns what that storage returns:
    ///
    /// ```swift
    /// func documentLocation(forKey key: String) -> URL? {
    ///     files.documentLocation(forKey: key)
    /// }
    /// ```
    ///
    /// The default is `nil`: then each document is kept apart from other stores' by the
    /// identity it records, once it is written.
    ///
    /// - Parameter key: The store name.
    func documentLocation(forKey key: String) -> URL?
}

extension StoreStorage {
    /// `nil`: the storage does not say where its documents are (see
    /// ``StoreStorage/documentLocation(forKey:)``).
    public func documentLocation(forKey key: String) -> URL? { nil }
}

/// A document's bytes as a storage holds them.
public struct StoredBytes: Sendable {
    /// The document's bytes.
    public var bytes: Data

    /// Where the document lives, to name it in errors and reports: a file, or a made-up URL
    /// for a storage without files (such as `/in-memory/settings.json`).
    public var location: URL

    /// What makes the document unusable, when the storage found it itself: something that is
    /// not a file in its place, more bytes than may be read, a failed checksum. The document
    /// layer then sets it aside without reading ``bytes``.
    public var damage: DocumentProblem?

    /// Why what is there may not be moved aside or replaced even when it is bad, when the
    /// storage can't vouch that it is the library's own (another program's file in a folder the
    /// library did not make). A bad document with a reason refuses every write, before any
    /// decision is taken on it.
    public var notOwnedReason: String? {
        get { ownership.map { $0() } ?? givenReason }
        set {
            givenReason = newValue
            ownership = nil
        }
    }

    /// The reason given to ``init(_:location:damage:notOwnedReason:)`` or set.
    private var givenReason: String?

    /// How the storage finds ``notOwnedReason``, when it looks only if asked (a bad document).
    private var ownership: (@Sendable () -> String?)?

    /// A problem of ``InMemoryStorage``'s simulation, reported as it is.
    var simulated: StorageError?

    /// A value given to ``InMemoryStorage/init(_:)``, taken as it is.
    var seeded: (any Sendable)?

    /// Bytes read from `location`.
    public init(_ bytes: Data, location: URL, damage: DocumentProblem? = nil, notOwnedReason: String? = nil) {
        self.bytes = bytes
        self.location = location
        self.damage = damage
        self.givenReason = notOwnedReason
    }

    /// Bytes read from `location`, whose ``notOwnedReason`` `ownership` finds when asked.
    init(_ bytes: Data, location: URL, damage: DocumentProblem? = nil, ownership: @escaping @Sendable () -> String?) {
        self.bytes = bytes
        self.location = location
        self.damage = damage
        self.ownership = ownership
    }
}

/// Why a document can't be used, and so is set aside.
public enum DocumentProblem: Sendable, Equatable {
    /// It can't be read: something other than a file in its place, or more bytes than may be
    /// read.
    case unreadable(reason: String)
    /// It was read, and is not a valid document for the store.
    case corrupted(reason: String)

    /// What is wrong, as a clause: "it is damaged (…)".
    public var summary: String {
        switch self {
        case .unreadable(let reason): "it can't be read (\(reason))"
        case .corrupted(let reason): "it is damaged (\(reason))"
        }
    }

    /// A word for the name a set-aside document is kept under: `unreadable` or `corrupt`.
    public var tag: String {
        switch self {
        case .unreadable: "unreadable"
        case .corrupted: "corrupt"
        }
    }

    /// The report of this problem, for the document at `location` now kept at `keptAt`.
    package func report(location: URL, keptAt: URL) -> StorageError {
        switch self {
        case .unreadable(let reason): .unreadable(file: location, keptAt: keptAt, reason: reason)
        case .corrupted(let reason): .corrupted(file: location, keptAt: keptAt, reason: reason)
        }
    }
}

/// What a transaction's body decided: its result, and the change the storage commits.
public struct DocumentDecision<Result> {
    /// What the transaction returns.
    public var result: Result

    /// The change to commit; ``DocumentChange/none`` leaves the document as it is.
    public var change: DocumentChange

    /// A decision to return `result` and commit `change`.
    public init(_ result: Result, change: DocumentChange = .none) {
        self.result = result
        self.change = change
    }
}

/// The change a transaction commits, as one durable step: a crash leaves all of it or none.
public struct DocumentChange: Sendable, Equatable {
    /// The new document, or `nil` to write none.
    public var bytes: Data?

    /// The problem of the current document, when it is bad and must be set aside first: kept
    /// (never deleted) where the storage keeps such documents, and named in the commit's
    /// ``DocumentCommit/keptAt``. When the new document can't be written, the bad one is
    /// back in its place.
    public var settingAside: DocumentProblem?

    /// A copy of the current document to keep before it is replaced, for a migration.
    public var backup: DocumentBackup?

    /// Nothing changes.
    public static let none = DocumentChange()

    /// A change: write `bytes` (if any), after setting the current document aside or backing it
    /// up.
    public init(bytes: Data? = nil, settingAside: DocumentProblem? = nil, backup: DocumentBackup? = nil) {
        self.bytes = bytes
        self.settingAside = settingAside
        self.backup = backup
    }
}

/// A copy of a document as it was before a migration replaced it.
public struct DocumentBackup: Sendable, Equatable {
    /// The document's bytes before the migration.
    public var original: Data
    /// The value version migrated from.
    public var from: Int
    /// The value version migrated to.
    public var to: Int

    /// A copy of `original`, migrated from version `from` to `to`. Only the document layer makes one.
    package init(original: Data, from: Int, to: Int) {
        self.original = original
        self.from = from
        self.to = to
    }
}

/// What a transaction committed.
public struct DocumentCommit<Result> {
    /// What the body returned.
    public var result: Result

    /// Where the bad document set aside now is, when one was.
    public var keptAt: URL?

    /// A commit of `result`, with the bad document kept at `keptAt`.
    public init(_ result: Result, keptAt: URL? = nil) {
        self.result = result
        self.keptAt = keptAt
    }
}

extension DocumentDecision: Sendable where Result: Sendable {}
extension DocumentCommit: Sendable where Result: Sendable {}
