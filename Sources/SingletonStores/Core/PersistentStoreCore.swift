import Foundation
import StoreObservation
import SingletonStoresLocking

/// A ``StoreCore`` whose state is also a document in a ``StoreStorage``: loaded at init,
/// written on every committed change, safe across processes.
///
/// ```swift
/// final class SettingsStore: Sendable {
///     static let shared = SettingsStore()
///     private let persisted: PersistentStoreCore<Settings>
///
///     init(storage: any StoreStorage = FileStorage(), center: NotificationCenter = .default) {
///         persisted = PersistentStoreCore(
///             key: "settings", default: Settings(), storage: storage,
///             channel: .settings, center: center)
///     }
///     var settings: Settings { persisted.state }
///     func setTheme(_ theme: Theme) throws(StorageError) {
///         try persisted.update { $0.theme = theme }
///     }
/// }
/// ```
///
/// Each `update(_:)` runs the storage's locked read-modify-write: it starts from the document
/// as it is on disk (another process may have changed it), applies the change, writes it
/// atomically, and only then commits the same value in memory and posts it. Writes reach
/// memory in the order they reached the disk. If the write fails, neither memory nor disk
/// changes and nothing is posted. Reading ``state`` never waits for a write, even one that
/// waits for another process's lock.
///
/// A document that cannot be read is kept aside by the storage; the store starts from the
/// default, keeps the problem in ``loadProblem`` and reports it once as
/// ``StoreIssue/storageRecovered(_:)``. A document written by a newer version of the app, or by
/// another store, is left in place: the store starts from the default, reports it the same way,
/// and every write throws it (``StorageError/newerFormatLeftInPlace(file:found:supported:)``,
/// ``StorageError/documentOfAnotherStore(file:owner:store:)``), so that the document is never lost.
///
/// The store follows its document (``StorageWatching/automatic`` by default): a version another
/// process commits is read, committed in memory and posted like a change of its own. A document
/// belongs to one store (its ``StoreDocument/identity``): a second store of another identity on
/// it — in this process, in another, or later — is refused; in this process it is reported as
/// ``StoreIssue/documentKeyInUse(key:usedBy:requestedBy:)``. <doc:PersistenceAndRecovery>
/// tells the whole story: the data folder, bad files, two processes, live sync, migrations.
///
/// With ``StoreWritePolicy/coalescing(within:clock:)``, ``set(_:)`` commits in memory and posts
/// at once, and the disk gets the newest value at most once per window (see
/// ``StoreWritePolicy``); ``flush()`` writes it now.
public final class PersistentStoreCore<State: Codable & Sendable & Equatable>: Sendable {
    // The in-memory state. Outside this file it is only read (``state`` is inlined into the
    // app, so that a read costs what a `StoreCore` read costs); every write goes through
    // `update`, which writes the document first: nothing changes the state without the disk.
    @usableFromInline let core: StoreCore<State>
    /// The document: its key, default value and migrations.
    public let document: StoreDocument<State>
    /// The problem found when the document was loaded, if it had to be kept aside, could not
    /// be read, or could not be migrated; `nil` when it loaded cleanly (or was migrated) or did
    /// not exist.
    public let loadProblem: StorageError?
    private let storage: any StoreStorage
    private let reportIssue: @Sendable (StoreIssue) -> Void
    // Keep the document, and those its state is also read from, watched while the store lives.
    private let watch: StorageWatch?
    private let otherWatches: [StorageWatch]
    // Orders writes and follows in memory.
    private let tracker: WriteTracker
    private let follower: DiskFollower<State>
    // This store's claim on its document, which keeps stores of other types in this process
    // off it; `nil` when the document is not claimed (not in a file).
    private let claim: DocumentClaim?
    // Why this store never reads or writes its document: a store of another identity in this
    // process holds it. `nil` for every store that may use its document.
    private let refusal: StorageError?
    // The pending set and its scheduled write, with the coalescing policy; `nil` when every
    // set is written at once.
    private let writes: CoalescedWrites<State>?
    // A stub's document, kept in memory as a value and never encoded; `nil` for a store whose
    // document is in `storage`.
    private let memory: MemoryDocument<State>?

    /// When ``set(_:)`` reaches the disk: at once, or at most once per window.
    public let writePolicy: StoreWritePolicy

    /// Loads `document`, migrating it if an older version of the app saved it (when it has
    /// ``StoreDocument/migrations``), or starts from its default value.
    ///
    /// ```swift
    /// persisted = PersistentStoreCore(
    ///     StoreDocument(key: "settings", default: Settings(), migrations: DocumentMigrations(version: 2)
    ///         .step(from: 1) { (old: SettingsV1) in Settings(fontSize: Double(old.fontPoints)) }),
    ///     storage: storage, channel: .settings)
    /// ```
    ///
    /// With migrations, every document the store writes records their current version, and
    /// every read — at launch, on ``reload()``, following another process — migrates an older
    /// one (see ``DocumentMigrations``). When a document can't be migrated, it is left in place:
    /// the store starts from the default value, keeps
    /// ``StorageError/migrationFailed(file:from:failedStep:reason:)`` as its ``loadProblem``,
    /// reports it once, and its updates throw that error rather than overwrite the document.
    ///
    /// - Parameters:
    ///   - document: The document: its key (such as `"profile"`), the state when there is no
    ///     usable document, and its migrations, if any.
    ///   - storage: Where the document lives.
    ///   - channel: The channel changes are posted on.
    ///   - center: The notification center to post to.
    ///   - object: The notification `object` for classic observers, derived from each change.
    ///   - watching: How the store follows versions other processes write; file events or a
    ///     poll by default (see ``StorageWatching``), `.off` to read only at launch and on
    ///     writes.
    ///   - writePolicy: When ``set(_:)`` reaches the disk: at once by default, or at most once
    ///     per window with ``StoreWritePolicy/coalescing(within:clock:)``.
    ///   - reportIssue: Receives storage problems, and a coalesced write that failed; prints to
    ///     standard error by default.
    public convenience init(
        _ document: StoreDocument<State>,
        storage: any StoreStorage,
        channel: NotificationChannel<StoreChange<State>>,
        center: NotificationCenter = .default,
        object: @escaping @Sendable (StoreChange<State>) -> (any Sendable)? = { _ in nil },
        watching: StorageWatching = .automatic,
        writePolicy: StoreWritePolicy = .immediate,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            document, storage: storage, channel: channel, center: center, object: object, watching: watching,
            writePolicy: writePolicy, reading: nil, reportIssue: reportIssue)
    }

    /// Loads `document`, as the public initializer does, with a state made by `reading` from
    /// what it reads: a store whose state is derived from its document and from other
    /// documents (the countdown, whose state is also its monotonic phase and which reads the
    /// grants of its item spends) gives its own, and is followed on those documents too.
    package init(
        _ document: StoreDocument<State>,
        storage: any StoreStorage,
        channel: NotificationChannel<StoreChange<State>>,
        center: NotificationCenter,
        object: @escaping @Sendable (StoreChange<State>) -> (any Sendable)? = { _ in nil },
        watching: StorageWatching,
        writePolicy: StoreWritePolicy = .immediate,
        reading: StateReading<State>?,
        memory: MemoryDocument<State>? = nil,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) {
        let key = document.key
        // A document a live store of another identity holds is never read, moved or written.
        var claim: DocumentClaim?
        var refusal: StorageError?
        switch DocumentClaims.claim(identity: document.identity, key: key, storage: storage) {
        case .claimed(let granted): claim = granted
        case .heldByAnotherStore(let holder, let file):
            reportIssue(.documentKeyInUse(key: key, usedBy: holder, requestedBy: document.identity))
            refusal = .documentOfAnotherStore(file: file, owner: holder, store: document.identity)
        }
        // Watch first, load second: a version written in between is caught up on at once.
        let tracker = WriteTracker()
        let reading = reading ?? memory?.reading ?? .document(document, in: storage)
        let follower = DiskFollower<State>(reading: reading, tracker: tracker, reportIssue: reportIssue)
        func follow(_ key: String) -> StorageWatch? {
            guard refusal == nil else { return nil }
            return (try? storage.watch(forKey: key, watching) { follower.adoptDisk() }) ?? nil
        }
        let watch = follow(key)
        let otherWatches = reading.alsoFollowing.compactMap(follow)
        let loaded: StorageLoad<State>
        if let refusal {
            loaded = StorageLoad(value: document.defaultValue, isStored: false, recovery: nil)
            self.loadProblem = refusal
        } else {
            loaded = reading.read(document.defaultValue)
            self.loadProblem = loaded.recovery
            // A document another store wrote is that store's: this one, refused, keeps no claim
            // that would keep the owner, made again in this process, off its own document.
            if case .documentOfAnotherStore? = loaded.recovery { claim = nil }
        }
        self.claim = claim
        self.refusal = refusal
        self.document = document
        self.storage = storage
        self.reportIssue = reportIssue
        let core = StoreCore(loaded.value, channel: channel, center: center, object: object)
        self.core = core
        self.writePolicy = writePolicy
        self.memory = memory
        if let window = writePolicy.window, let clock = writePolicy.clock {
            writes = CoalescedWrites(
                window: window, clock: clock, document: document, storage: storage, tracker: tracker,
                follower: follower, core: core, reportIssue: reportIssue)
        } else {
            writes = nil
        }
        self.watch = watch
        self.otherWatches = otherWatches
        self.tracker = tracker
        self.follower = follower
        if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
        follower.attach(core)
    }

    /// How the store follows its document right now; `nil` when it does not (watching is
    /// `.off`, or the storage does not watch).
    public var watchMechanism: StorageWatchMechanism? { watch?.mechanism }

    /// The current state.
    @inlinable public var state: State { core.state }

    /// The notification center changes are posted to.
    public var center: NotificationCenter { core.center }

    /// Changes the state on disk and in memory as one transaction, then posts the change: the
    /// transaction every `update` and `set` runs.
    private func write<Result>(_ body: (inout State) -> Result) throws(StorageError) -> Result {
        guard let result = try transaction(waits: true, body) else { throw .gaveUpWaiting(forKey: document.key) }
        return result
    }

    /// Like `update(_:)`, but never waits for another process: when it holds the document's
    /// lock, returns `nil` at once and `body` does not run.
    ///
    /// - Parameter body: A pure change of the state, as for `update(_:)`.
    /// - Returns: What `body` returns, or `nil` when the document was locked.
    /// - Throws: ``StorageError`` when the document could not be written; then nothing changed.
    @discardableResult
    package func updateIfAvailable<Result>(_ body: (inout State) -> Result) throws(StorageError) -> Result? {
        try transaction(waits: false, body)
    }

    /// The one transaction every change goes through, as `update(_:)` does it, with a body that
    /// may also read or change another document under this one's lock (the countdown spends an
    /// item in the purchases ledger so), and throw a ``StorageError`` to change nothing.
    ///
    /// The storage's locked read-modify-write runs `body` after numbering the write under the
    /// lock (writes reach memory in disk order); a committed write is then adopted in memory
    /// and posted.
    ///
    /// - Parameters:
    ///   - waits: Whether to wait for another process's lock, as `update(_:)` does; when
    ///     `false` and it is held, `body` does not run and the result is `nil`.
    ///   - body: The change. It runs under the document's file lock: it must not post or call
    ///     observers.
    /// - Returns: What `body` returns, or `nil` when the lock was held and `waits` is `false`.
    /// - Throws: What `body` threw, or the ``StorageError`` of the failed write; then nothing
    ///   changed. A write that took effect but whose flush failed
    ///   (``StorageError/notDurable(file:reason:)``) is done: it returns, its state is on disk and
    ///   in memory, and the error is reported as ``StoreIssue/storageRecovered(_:)``.
    package func transaction<Result>(
        waits: Bool, _ body: (inout State) throws(StorageError) -> Result
    ) throws(StorageError) -> Result? {
        if let refusal { throw refusal }
        let follows = tracker.beginWrite()
        // A write whose flush failed after it took effect (notDurable) is on disk and read by
        // others: it is done. Memory follows the disk, as for news of a write, and the doubt
        // about its durability is reported as an issue, not thrown as a failure.
        var tookEffect = false
        defer { if tracker.endWrite(since: follows) || tookEffect { follower.adoptDisk() } }
        var sequence: UInt64 = 0
        var folded: UInt64?
        var outcome: Result?
        func step(_ state: inout State) throws(StorageError) -> Result {
            (sequence, folded) = begin(&state)
            let result = try body(&state)
            outcome = result
            return result
        }
        let committed: StorageUpdate<State, Result>?
        do {
            committed =
                if let memory { try memory.transaction(waits: waits, step) } else {
                    try storage.update(document, waits: waits, step)
                }
        } catch {
            guard case .notDurable = error, let outcome else { throw error }
            tookEffect = true
            writes?.transactionCommitted(folded: folded)
            reportIssue(.storageRecovered(error))
            return outcome
        }
        guard let committed else { return nil }
        writes?.transactionCommitted(folded: folded)
        adopt(committed, sequence: sequence)
        return committed.outcome
    }

    /// Reads the document now, as a watch's news does, adopting what another process wrote.
    package func followDisk() {
        follower.adoptDisk()
    }

    /// Posts the current state to the observers, in order with the changes being posted (see
    /// ``StoreCore/postCurrentState()``).
    package func postCurrentState() {
        core.postCurrentState()
    }

    /// Starts a transaction under the document's lock: its sequence number, and, with a set
    /// pending, the state started from it (and the number of the value folded in).
    private func begin(_ state: inout State) -> (sequence: UInt64, folded: UInt64?) {
        guard let writes else { return (tracker.nextSequence(), nil) }
        return writes.fold(into: &state)
    }

    /// Replaces the state; with the coalescing ``writePolicy``, on disk by the end of the
    /// window.
    ///
    /// With ``StoreWritePolicy/immediate`` (the default) it is `update { $0 = newValue }`: on
    /// disk, then in memory, then posted. With ``StoreWritePolicy/coalescing(within:clock:)`` it
    /// commits `newValue` in memory and posts it at once, and the disk gets the newest value set
    /// at the end of the window (see ``StoreWritePolicy``). A coalesced write that fails is
    /// reported to `reportIssue` as ``StoreIssue/storageRecovered(_:)``, and the store goes back
    /// to the value on disk, posting the change.
    ///
    /// - Parameter newValue: The new state.
    /// - Throws: ``StorageError`` when the document could not be written (with the coalescing
    ///   policy, only when the store may not use its document at all); then nothing changed.
    public func set(_ newValue: State) throws(StorageError) {
        if let refusal { throw refusal }
        guard let writes else {
            try write { $0 = newValue }
            return
        }
        writes.set(newValue)
    }

    /// Writes the value ``set(_:)`` left pending now, instead of at the end of its window; does
    /// nothing when none is (always, with the immediate ``writePolicy``).
    ///
    /// Call it when the app is about to be suspended (its scene phase becomes `.background`):
    /// a process killed inside a window loses the values set within it. A process that exits
    /// normally writes pending values on its way out.
    ///
    /// It waits for another process's lock as `update(_:)` does.
    ///
    /// - Throws: ``StorageError`` when the value could not be written: then the store has gone
    ///   back to the value on disk, posting the change.
    public func flush() throws(StorageError) {
        try writes?.flush()
    }

    /// Changes the state on disk and in memory as one transaction, then posts the change;
    /// throw from `body` to refuse it: then nothing is written, committed or posted.
    ///
    /// A body that throws nothing (`try persisted.update { $0.theme = .dark }`) makes `update`
    /// throw ``StorageError`` (including ``StorageError/lockTimedOut(file:holder:waited:)``). A
    /// body that throws an error of the store's own — a ``StoreFailure``, named in the closure's
    /// signature — makes it throw that error, with a document that could not be written as its
    /// `storage` case (see <doc:Errors>):
    ///
    /// ```swift
    /// try persisted.update { (wallet: inout Wallet) throws(WalletError) in
    ///     guard wallet.balance >= price else { throw .insufficientFunds(balance: wallet.balance) }
    ///     wallet.balance -= price
    /// }
    /// ```
    ///
    /// - Parameter body: The change. It sees the state as it is on disk, under the store's lock
    ///   and the document's file lock: it must not post, call observers or touch other stores.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` threw, or `Failure.storage(_:)` with the ``StorageError`` when the
    ///   document could not be written; either way nothing changed. A change written whose flush
    ///   failed (``StorageError/notDurable(file:reason:)``) is done, not thrown: the store reports
    ///   it as ``StoreIssue/storageRecovered(_:)`` (a power cut may bring back the state before).
    @discardableResult
    public func update<Result, Failure: StoreFailure>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure.Thrown) -> Result {
        let outcome: Swift.Result<Result, Failure>
        do throws(StorageError) {
            outcome = try write { (state: inout State) -> Swift.Result<Result, Failure> in
                Self.changingACopy(of: &state, body)
            }
        } catch {
            throw Failure.storage(error)
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let refusal): throw Failure.thrown(refusal)
        }
    }

    /// Runs a change as the typed form above does, with a
    /// body that throws any error: `update` throws that error as it was thrown, or the
    /// ``StorageError`` of a document that could not be written; either way nothing changed.
    /// Swift picks this form for a body whose error is not a ``StoreFailure``.
    ///
    /// - Parameter body: The change, under the store's lock and the document's file lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` threw, or the ``StorageError`` of a document that could not be written.
    @_disfavoredOverload
    @discardableResult
    public func update<Result>(_ body: (inout State) throws -> Result) throws -> Result {
        try update { (state: inout State) throws(UntypedStoreFailure) -> Result in
            try UntypedStoreFailure.run(body, on: &state)
        }
    }

    /// Runs `body` on a copy of `state` and keeps the copy only if `body` returns, so that a
    /// refusal leaves the state exactly as it was; a body that cannot throw changes `state`
    /// itself (no copy to pay for).
    private static func changingACopy<Result, Failure: Error>(
        of state: inout State, _ body: (inout State) throws(Failure) -> Result
    ) -> Swift.Result<Result, Failure> {
        if Failure.self == Never.self {
            do throws(Failure) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        var proposed = state
        do throws(Failure) {
            let result = try body(&proposed)
            state = proposed
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// Re-reads the document, adopting what another process wrote since; posts if it differs.
    ///
    /// Takes no lock and never waits for a writer: it reads the last committed document. While
    /// a write of this store is under way, it leaves the adopting to that write, which follows
    /// the disk once it has committed.
    ///
    /// - Throws: ``StorageError`` when the document could not be read.
    public func reload() throws(StorageError) {
        if let refusal { throw refusal }
        var recovered: StorageError?
        try core.update { (state: inout State) throws(StorageError) in
            try tracker.follow { () throws(StorageError) in
                let loaded =
                    if let memory { StorageLoad(value: memory.current, isStored: true) } else {
                        try storage.load(document)
                    }
                recovered = loaded.recovery
                state = loaded.value
            }
        }
        if let recovered { reportIssue(.storageRecovered(recovered)) }
    }

    /// Commits a write that reached the disk to memory, unless a later one already did (writes
    /// reach memory in disk order), posts it, and reports a bad document it moved aside.
    private func adopt<Result>(_ committed: StorageUpdate<State, Result>, sequence: UInt64) {
        core.update { state in
            if tracker.adopt(sequence) { state = committed.value }
        }
        if let recovered = committed.recovery { reportIssue(.storageRecovered(recovered)) }
    }
}

extension PersistentStoreCore {
    /// Calls `handler` with every change this store commits, until the token is cancelled.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each committed change, after it is on disk.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        core.observe(on: delivery, handler)
    }

    /// The changes this store commits, as an asynchronous sequence; see
    /// ``StoreCore/changes(buffering:)``.
    ///
    /// - Parameter buffering: What to keep while the consumer is busy.
    public func changes(
        buffering: NotificationChannel<StoreChange<State>>.Buffering = .newest(1)
    ) -> AsyncStream<StoreChange<State>> {
        core.changes(buffering: buffering)
    }
}

extension PersistentStoreCore {
    /// A store whose document is kept in memory as a value, never encoded and never watched:
    /// the stub of a ``ValueStore``. It changes, refuses, posts and takes part in Observation as
    /// a store on a storage does.
    ///
    /// - Parameters:
    ///   - initial: The state it starts with.
    ///   - key: The document's name, as a store on a storage would have it.
    ///   - channel: The channel changes are posted on.
    ///   - center: The notification center to post to.
    package convenience init(
        inMemory initial: State, key: String, channel: NotificationChannel<StoreChange<State>>,
        center: NotificationCenter
    ) {
        self.init(
            StoreDocument(key: key, default: initial), storage: InMemoryStorage(), channel: channel, center: center,
            watching: .off, reading: nil, memory: MemoryDocument(initial), reportIssue: StoreIssue.printToStandardError)
    }

    /// Loads the document named `key`, or starts from `defaultValue`: the store of
    /// ``init(_:storage:channel:center:object:watching:writePolicy:reportIssue:)`` on
    /// `StoreDocument(key: key, default: defaultValue)`.
    ///
    /// - Parameters:
    ///   - key: The document's name, such as `"profile"`.
    ///   - defaultValue: The state when there is no usable document.
    ///   - storage: Where the document lives.
    ///   - channel: The channel changes are posted on.
    ///   - center: The notification center to post to.
    ///   - object: The notification `object` for classic observers, derived from each change.
    ///   - watching: How the store follows versions other processes write.
    ///   - reportIssue: Receives storage problems; prints to standard error by default.
    public convenience init(
        key: String, default defaultValue: State, storage: any StoreStorage,
        channel: NotificationChannel<StoreChange<State>>, center: NotificationCenter = .default,
        object: @escaping @Sendable (StoreChange<State>) -> (any Sendable)? = { _ in nil },
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            StoreDocument(key: key, default: defaultValue), storage: storage, channel: channel, center: center,
            object: object, watching: watching, reportIssue: reportIssue)
    }
}

// MARK: - The store's own writes
//
// The sequence the store gives its writes, so that what it hears from the disk can be told
// apart from what it wrote itself.

/// Orders a ``PersistentStoreCore``'s writes and its follows of the disk in memory, without
/// holding the store's lock while a write waits for the file lock.
///
/// A write commits to disk first, then to memory. Writes take a sequence number under the file
/// lock, so their numbers follow the order of the disk; memory adopts a write only if no later
/// one was adopted. A follow (news from the disk, or ``PersistentStoreCore/reload()``) reads the
/// disk inside the store's own transaction; it adopts nothing while a write of this process is
/// under way, and a write that sees a follow happen while it was under way follows the disk
/// again once it has committed, so memory always ends at what the disk holds.
final class WriteTracker: Sendable {
    private struct Counts {
        /// Writes of this process under way.
        var writes = 0
        /// Follows so far (adopting or not), counted when they end.
        var follows: UInt64 = 0
        /// Sequence numbers handed out, and the newest adopted in memory.
        var issued: UInt64 = 0
        var adopted: UInt64 = 0
    }

    private let counts = Locked(Counts())

    /// A write begins; returns the follow count to hand back to ``endWrite(since:)``.
    func beginWrite() -> UInt64 {
        counts.withLock { counts in
            counts.writes += 1
            return counts.follows
        }
    }

    /// The next sequence number; call under the file lock.
    func nextSequence() -> UInt64 {
        counts.withLock { counts in
            counts.issued += 1
            return counts.issued
        }
    }

    /// Whether the write numbered `sequence` may replace memory: no later one did yet.
    func adopt(_ sequence: UInt64) -> Bool {
        counts.withLock { counts in
            guard sequence > counts.adopted else { return false }
            counts.adopted = sequence
            return true
        }
    }

    /// A write ends; returns whether a follow happened meanwhile, so that the disk must be
    /// followed again.
    func endWrite(since follows: UInt64) -> Bool {
        counts.withLock { counts in
            counts.writes -= 1
            return counts.follows != follows
        }
    }

    /// Runs a follow: `read` runs (inside the store's transaction) only while no write is under
    /// way; either way the follow is counted when it ends.
    func follow<Failure: Error>(_ read: () throws(Failure) -> Void) throws(Failure) {
        defer { counts.withLock { $0.follows += 1 } }
        guard counts.withLock({ $0.writes == 0 }) else { return }
        try read()
    }
}
