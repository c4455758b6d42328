import Foundation

/// The document layer: what every ``StoreStorage`` does above its bytes, once for all of them.
extension StoreStorage {
    /// Reads `document`, or its default value when there is none.
    ///
    /// Reading takes no lock and never waits. A bad document is moved aside and reported in
    /// ``StorageLoad/recovery`` (the value is then the default) — when the lock is free at once;
    /// while another writer holds it, the default comes back and the document is left to the
    /// next write. One of a newer version of the app (its format, or its value's version above
    /// the document's ``StoreDocument/migrations``), or one another store wrote, is left in
    /// place and reported there (``StorageError/newerFormatLeftInPlace(file:found:supported:)``,
    /// ``StorageError/newerValueVersionLeftInPlace(file:found:supported:)``,
    /// ``StorageError/documentOfAnotherStore(file:owner:store:)``), the value being the default.
    /// With migrations, a document of an older version of the value is migrated; when the lock
    /// is free at once it is backed up and rewritten at the current version (reported as
    /// ``StorageNotice/documentMigrated(file:from:to:backup:)``), else the migrated value is
    /// returned and the document left to the next write. One whose migration fails is left in
    /// place and reported as ``StorageError/migrationFailed(file:from:failedStep:reason:)``.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad key, or an error when the
    ///   document could not be read or a bad document could not be moved aside (it is left
    ///   untouched).
    public func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError)
        -> StorageLoad<Value>
    {
        guard let stored = try read(document.validKey()) else {
            return StorageLoad(value: document.defaultValue, isStored: false)
        }
        let transaction = DocumentTransaction(document: document, storage: self)
        // A document long enough to be read as a stream is read once: under the lock when it is
        // free at once, so that the smaller value read from it is written back at once.
        if DocumentReading.isStreamed(stored, as: document), let locked = try? transaction.loadUnderLock() {
            return locked
        }
        let first = DocumentReading.read(stored, as: document)
        if let failure = first.failure {
            return StorageLoad(value: document.defaultValue, isStored: false, recovery: failure)
        }
        if let value = first.value, first.migration == nil, first.streamedSize == nil {
            return StorageLoad(value: value, isStored: true)
        }
        if let value = first.value {
            // A migrated or long document is rewritten when the lock is free at once: best
            // effort, as the next write rewrites it anyway (and says why, if it still can't).
            return (try? transaction.loadUnderLock()) ?? StorageLoad(value: value, isStored: true)
        }
        guard let problem = first.problem else { return StorageLoad(value: document.defaultValue, isStored: false) }
        // Another program's file in the document's place is left alone: no lock is taken for it.
        try DocumentReading.checkMaySetAside(stored, problem: problem)
        // Moved aside only when the lock is free at once, after a look at what is there now.
        return try transaction.loadUnderLock() ?? StorageLoad(value: document.defaultValue, isStored: false)
    }

    /// Replaces what `document` holds with `value`, moving a bad document aside first.
    ///
    /// With ``StoreDocument/migrations``, the document records the current version; a document
    /// of an older value version is backed up before it is replaced. Throws, writing nothing,
    /// when the document in place can't be migrated
    /// (``StorageError/migrationFailed(file:from:failedStep:reason:)``) or is one this store may
    /// not change (see ``load(_:)``).
    ///
    /// - Returns: The problem with the previous document, if it was bad and had to be moved
    ///   aside first; `nil` otherwise.
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) throws(StorageError)
        -> StorageError?
    {
        try DocumentTransaction(document: document, storage: self).save(value)
    }

    /// Writes `document` again as it is now, under its lock: a version whose flush failed
    /// (``StorageError/notDurable(file:reason:)``) is written anew and flushed, so that what
    /// depends on it is decided on a document on disk.
    ///
    /// - Throws: What ``save(_:to:)`` throws; ``StorageError/notDurable(file:reason:)`` again when
    ///   this flush failed too.
    package func rewrite<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError) {
        _ = try DocumentTransaction(document: document, storage: self).rewrite()
    }

    /// Re-reads `document` under an exclusive lock, lets `body` change it, and writes it back if
    /// it changed.
    ///
    /// - Parameters:
    ///   - document: The document, and the value to start from when there is no usable one.
    ///     With ``StoreDocument/migrations``, `body` sees the document migrated to the current
    ///     version, and the document written records it (a migrated document is backed up and
    ///     rewritten even when `body` leaves its value as it is). When the document in place
    ///     can't be migrated, or is one this store may not change (a newer version of the
    ///     app's, another store's), the call throws the error ``load(_:)`` reports, running and
    ///     writing nothing. So it does, with ``StorageError/keepAsideFailed(file:reason:)``, for
    ///     a bad document that may not be moved aside (another program's file), so that a body
    ///     that spends or decides never acts on a write that can't happen.
    ///   - body: A transform of the value, run while the document is locked. It must not call
    ///     observers or post notifications (the caller posts after `update` returns), and must
    ///     not touch this document again (that would wait for its own lock). It may read or
    ///     update *other* documents of the same storage when a decision spans two, provided
    ///     every caller takes such nested documents in one fixed order (say, always `cart`
    ///     before `wallet`). To refuse a change, leave the value as it is and return the
    ///     reason: an unchanged value is not rewritten. If `body` throws, nothing is written
    ///     and the error is rethrown.
    /// - Returns: The committed value, what `body` returned, and any bad document that was
    ///   moved aside before `body` ran.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        guard let update = try DocumentTransaction(document: document, storage: self).run(waits: true, body) else {
            throw .gaveUpWaiting(forKey: document.key)
        }
        return update
    }

    /// Like ``update(_:_:)``, but never waits: when another writer holds the document's lock,
    /// returns `nil` at once and `body` does not run.
    ///
    /// For work that can wait for a later launch or write, such as crediting a purchase an
    /// earlier run left unfinished, so that a launch never waits on another process.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try DocumentTransaction(document: document, storage: self).run(waits: false, body)
    }
}

/// One locked read → decide → write of a document, above the bytes: the one place where a
/// document's value is read from what a storage holds, changed, encoded and committed.
struct DocumentTransaction<Value: Codable & Sendable, Storage: StoreStorage> {
    let document: StoreDocument<Value>
    let storage: Storage

    /// Runs `body` on the document's value under its lock, and commits the value it leaves
    /// when it changed; `nil` when `waits` is `false` and the lock is held.
    func run<Outcome>(
        waits: Bool, _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try runReading(waits: waits, body)?.update
    }

    /// ``run(waits:_:)``, also saying whether `body` started from a stored value (`false`: from
    /// the default, there being no usable document). With `rewrites`, the value `body` leaves
    /// is written even when it is the one read (a save: the document then records this
    /// version's format).
    func runReading<Outcome>(
        waits: Bool, rewrites: Bool = false, _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> (update: StorageUpdate<Value, Outcome>, wasStored: Bool)? {
        let decider = DocumentDecider<Value, Outcome>(document: document, key: try document.validKey(), rewrites: rewrites)
        let commit = try storage.transaction(decider.key, waits: waits) { (current) throws(StorageError) in
            try decider.decide(current, body)
        }
        return decider.finish(commit)
    }

    /// Writes the value read again (the default when there is no usable document).
    func rewrite() throws(StorageError) -> StorageError? {
        guard let done = try runReading(waits: true, rewrites: true, { (_: inout Value) throws(StorageError) in })
        else { throw .gaveUpWaiting(forKey: document.key) }
        return done.update.recovery
    }

    /// Replaces the document's value with `value`; the report of a bad document moved aside
    /// first, if any.
    func save(_ value: Value) throws(StorageError) -> StorageError? {
        guard let saved = try runReading(waits: true, rewrites: true, { $0 = value }) else {
            throw .gaveUpWaiting(forKey: document.key)
        }
        return saved.update.recovery
    }

    /// The document's value read under its lock when it is free at once (`nil` otherwise),
    /// committing what the read calls for — a migrated or long document rewritten, a bad one
    /// moved aside — with a document this store may not use (a newer version's, another
    /// store's, one whose migration fails) reported as the load's recovery, as ``StoreStorage/load(_:)`` reports it.
    func loadUnderLock() throws(StorageError) -> StorageLoad<Value>? {
        do throws(StorageError) {
            guard let read = try runReading(waits: false, { _ in () }) else { return nil }
            return StorageLoad(value: read.update.value, isStored: read.wasStored, recovery: read.update.recovery)
        } catch {
            guard error.refusesWrites else { throw error }
            return StorageLoad(value: document.defaultValue, isStored: false, recovery: error)
        }
    }
}

/// The decision of one transaction on a document, for any storage, blocking or not: what its body
/// decides from the bytes read (run again when the storage starts over), and what it left to
/// report once the storage committed.
final class DocumentDecider<Value: Codable & Sendable, Outcome> {
    let document: StoreDocument<Value>
    let key: String
    /// Whether the value is written even when it is the one read.
    let rewrites: Bool
    private var wasStored = false
    private var written: (bytes: Data, location: URL)?
    private var problem: (DocumentProblem, StoredBytes)?

    init(document: StoreDocument<Value>, key: String, rewrites: Bool) {
        self.document = document
        self.key = key
        self.rewrites = rewrites
    }

    /// The storage's transaction body: reads `current` as the document, runs `body` on its value
    /// and decides what to commit.
    func decide(
        _ current: StoredBytes?, _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> DocumentDecision<StorageUpdate<Value, Outcome>> {
        let valueVersion = document.migrations?.version
        written = nil
        problem = nil
        let read = current.map { DocumentReading.read($0, as: document) } ?? DocumentRead()
        if let failure = read.failure { throw failure }
        wasStored = read.value != nil
        // A bad document that may not be moved aside (another program's file) refuses the
        // update before `body` runs: a body that spends or decides under this lock must not
        // act on a write that can never happen.
        if let current, let bad = read.problem {
            try DocumentReading.checkMaySetAside(current, problem: bad)
            problem = (bad, current)
        }
        var value = read.value ?? document.defaultValue
        // The bytes read, when this process committed them, are the encoding of `value`:
        // then an unchanged value is one whose encoding is byte for byte what is stored.
        let before: Data?
        if rewrites {
            before = nil
        } else if let encoding = read.encoding {
            before = encoding
        } else {
            before = try DocumentCoding.encode(value, key: key, store: document.identity, valueVersion: valueVersion)
        }
        let outcome = try body(&value)
        let after = try DocumentCoding.encode(value, key: key, store: document.identity, valueVersion: valueVersion)
        // A migrated document is rewritten even when the body left its value as it was,
        // and so is a long one whose value is smaller than the document it was read from.
        let changed =
            after != before || read.migration != nil || read.streamedSize.map { Int64(after.count) < $0 } ?? false
        if changed, let location = current?.location { written = (after, location) }
        return DocumentDecision(
            StorageUpdate(value: value, outcome: outcome, didWrite: changed),
            change: DocumentChange(
                bytes: changed ? after : nil, settingAside: read.problem, backup: changed ? read.migration : nil))
    }

    /// What the transaction committed (`nil`: it did not run, the lock being held), with the
    /// report of a bad document set aside, and whether its body started from a stored value.
    func finish(
        _ commit: DocumentCommit<StorageUpdate<Value, Outcome>>?
    ) -> (update: StorageUpdate<Value, Outcome>, wasStored: Bool)? {
        guard var commit else { return nil }
        if let written {
            WrittenDocuments.remember(
                written.bytes, value: commit.result.value, in: written.location,
                valueVersion: document.migrations?.version, identity: document.identity, isOwnEncoding: true)
        }
        if let (bad, current) = problem {
            commit.result.recovery = DocumentReading.report(bad, of: current, keptAt: commit.keptAt)
        }
        return (commit.result, wasStored)
    }
}

extension StoreStorage {
    /// ``update(_:_:)`` when `waits`, else ``updateIfAvailable(_:_:)``: the one call for code
    /// that chooses at run time.
    func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>, waits: Bool, _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try DocumentTransaction(document: document, storage: self).run(waits: waits, body)
    }
}

extension StorageError {
    /// What a transaction that waits reports should its storage come back without a result,
    /// breaking the promise of ``StoreStorage/transaction(_:waits:_:)``: nothing was written.
    ///
    /// The storage did not say where the document is, so it is named by its key alone
    /// (`store:KEY`), never as a file in the current folder.
    static func gaveUpWaiting(forKey key: String) -> StorageError {
        let name = key.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        return .writeFailed(
            file: URL(string: "store:" + name) ?? URL(filePath: "/"),
            reason: "the storage came back without an outcome from a transaction that waits, which a storage must "
                + "not do: a defect of the storage, to report to its authors")
    }
}

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

    /// Creates a load result. Only the document layer makes one.
    package init(value: Value, isStored: Bool, recovery: StorageError? = nil) {
        self.value = value
        self.isStored = isStored
        self.recovery = recovery
    }
}

extension StorageLoad: Sendable where Value: Sendable {}
extension StorageLoad: Equatable where Value: Equatable {}

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

    /// Creates an update result. Only the document layer makes one.
    package init(value: Value, outcome: Outcome, didWrite: Bool, recovery: StorageError? = nil) {
        self.value = value
        self.outcome = outcome
        self.didWrite = didWrite
        self.recovery = recovery
    }
}

extension StorageUpdate: Sendable where Value: Sendable, Outcome: Sendable {}
extension StorageUpdate: Equatable where Value: Equatable, Outcome: Equatable {}
