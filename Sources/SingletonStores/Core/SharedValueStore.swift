import Foundation
import SingletonStoresLocking
import StoreObservation

/// A value store on a storage reached over a network — a database several machines share: read
/// from memory, changed with `try await`, followed live.
///
/// ```swift
/// struct Flags: Codable, Sendable, Equatable { var newCheckout = false }
///
/// let flags = try await SharedValueStore(key: "flags", default: Flags(), storage: storage)
/// let checkout = flags.value.newCheckout ? "new" : "old"  // from memory, never waits
/// try await flags.update { $0.newCheckout = true }         // under the row's lock, everywhere
/// ```
///
/// It is a ``ValueStore`` for an ``AsyncStoreStorage``, with the differences that waiting on a
/// network calls for:
///
/// - **Loaded before it exists.** Its initializer loads the document and throws when that fails
///   — the server can't be reached, say — so a store that exists holds what the storage holds,
///   never a default passed off as the value.
/// - **No blocking write.** `update` and `set` are `async`: a task waiting for the server is
///   suspended and holds no thread, and there is no other form of a write. The body of `update`
///   stays synchronous: a decision on the value as it is on the server now, under the
///   document's lock, which may run again.
/// - **Followed live.** Another process's commit, announced by the storage's watch, is read —
///   with ``AsyncStoreStorage/readHeard(_:)``, which a storage whose announcements carry the
///   document answers without a round trip — and posted as a change whose origin is another
///   process; after a reconnection the document is read again.
///
/// Changes post on ``channel`` to ``center`` and take part in Swift Observation, as ``ValueStore``'s
/// do. A change whose commit's outcome was lost with the connection
/// (``StorageError/commitOutcomeUnknown(backend:key:reason:)``) is thrown after the store has read
/// the document again: its ``value`` then shows what the storage holds.
public final class SharedValueStore<Value: Codable & Sendable & Equatable>: Sendable {
    /// The document: its key, default and migrations.
    public let document: StoreDocument<Value>

    /// The channel every change is posted on: `SingletonStores.SharedValueStore.<key>`.
    public let channel: NotificationChannel<StoreChange<Value>>

    /// The notification center changes are posted to.
    public let center: NotificationCenter

    private let storage: any AsyncStoreStorage
    private let core: StoreCore<Value>
    private let reportIssue: @Sendable (StoreIssue) -> Void
    /// Own writes one at a time, so that they are adopted in the order they committed.
    private let writes = TurnTaking()
    /// How many own commits were adopted: a read that started before one is stale.
    private let adopted = Locked<UInt64>(0)
    /// Whether a read of news is under way, and whether news came in meanwhile.
    private let following = Locked<(reading: Bool, again: Bool)>((false, false))
    private let watch = Locked<StorageWatch?>(nil)

    /// A store on `document` in `storage`, loaded now.
    ///
    /// - Parameters:
    ///   - document: The document: its key, the value when there is none, its migrations.
    ///   - storage: Where the document lives.
    ///   - center: Where changes are posted; `.default` by default.
    ///   - follows: Whether to follow other writers through the storage's watch (`true` by
    ///     default).
    ///   - reportIssue: Receives problems met while following, a bad document set aside, and a
    ///     change committed whose flush was not confirmed; prints to standard error by default.
    /// - Throws: ``StorageError`` when the document could not be loaded (the store does not
    ///   exist then): ``StorageError/backendUnreachable(backend:reason:)`` when the server can't
    ///   be reached.
    public init(
        _ document: StoreDocument<Value>,
        storage: any AsyncStoreStorage,
        center: NotificationCenter = .default,
        follows: Bool = true,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) async throws(StorageError) {
        let loaded = try await storage.load(document)
        self.document = document
        self.storage = storage
        self.center = center
        self.reportIssue = reportIssue
        channel = NotificationChannel("SingletonStores.SharedValueStore.\(document.key)")
        core = StoreCore(loaded.value, channel: channel, center: center)
        if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
        if follows {
            let watch = try await storage.watch(forKey: document.key) { [weak self] in self?.heardNews() }
            self.watch.withLock { $0 = watch }
        }
    }

    /// A store on the document `key` of `storage`, loaded now: the store of
    /// ``init(_:storage:center:follows:reportIssue:)`` on `StoreDocument(key: key, default: defaultValue)`.
    public convenience init(
        key: String, default defaultValue: Value, storage: any AsyncStoreStorage, center: NotificationCenter = .default,
        follows: Bool = true, reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) async throws(StorageError) {
        try await self.init(
            StoreDocument(key: key, default: defaultValue), storage: storage, center: center, follows: follows,
            reportIssue: reportIssue)
    }

    /// The value, from memory: what the storage held at the last commit or read. Reading it
    /// inside `withObservationTracking` (a SwiftUI `body`) registers a dependency on every change.
    public var value: Value { core.state }

    /// Changes the value as one transaction under the document's lock — held across every
    /// machine that shares the storage — then in memory, and posts the change. Throw from `body`
    /// to refuse it: then nothing changes.
    ///
    /// ```swift
    /// try await wallet.update { (balance: inout Int) throws(WalletError) in
    ///     guard balance >= price else { throw .insufficientFunds(balance: balance) }
    ///     balance -= price
    /// }
    /// ```
    ///
    /// - Parameter body: The change, applied to the value as the storage holds it now. It is
    ///   synchronous and may run again (when the storage had to start over): decide from what
    ///   it is given, each time.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or `Failure.storage(_:)` with the ``StorageError`` of a
    ///   change that was not made. A change made whose flush was not confirmed
    ///   (``StorageError/notDurable(file:reason:)``) is done, and reported; one whose commit's
    ///   outcome is unknown is thrown once the store has read the document again.
    @discardableResult
    public func update<Result, Failure: StoreFailure>(
        _ body: (inout Value) throws(Failure) -> Result
    ) async throws(Failure.Thrown) -> Result {
        await writes.begin()
        defer { writes.end() }
        // What the body decided the last time it ran: the outcome of a change committed whose
        // flush was not confirmed, which the storage throws rather than returns.
        var decided: Swift.Result<Result, Failure>?
        let outcome: Swift.Result<Result, Failure>
        do throws(StorageError) {
            let update = try await storage.update(document) { (value: inout Value) -> Swift.Result<Result, Failure> in
                var proposed = value
                let result = Self.run(body, on: &proposed)
                if case .success = result { value = proposed }
                decided = result
                return result
            }
            adopt(update.value)
            if let problem = update.recovery { reportIssue(.storageRecovered(problem)) }
            outcome = update.outcome
        } catch {
            switch error {
            case .notDurable:
                // In place, its flush unconfirmed: done. Memory follows what is read.
                reportIssue(.storageRecovered(error))
                try? await readAgain(adopting: true)
                guard let decided else { throw Failure.storage(error) }
                outcome = decided
            case .commitOutcomeUnknown:
                try? await readAgain(adopting: true)
                throw Failure.storage(error)
            default:
                throw Failure.storage(error)
            }
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let refusal): throw Failure.thrown(refusal)
        }
    }

    /// Changes the value as the typed form above does, with a
    /// body that throws any error: `update` throws that error as it was thrown, or the
    /// ``StorageError`` of a change that was not made. Swift picks this form for a body whose
    /// error is not a ``StoreFailure``.
    ///
    /// - Parameter body: The change, applied to the value as the storage holds it now;
    ///   synchronous, and it may run again.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or the ``StorageError`` of a change that was not made.
    @_disfavoredOverload
    @discardableResult
    public func update<Result>(_ body: (inout Value) throws -> Result) async throws -> Result {
        try await update { (value: inout Value) throws(UntypedStoreFailure) -> Result in
            try UntypedStoreFailure.run(body, on: &value)
        }
    }

    /// Replaces the value, posting the change if it differs.
    ///
    /// - Throws: ``StorageError`` when the document could not be written; then nothing changed.
    public func set(_ newValue: Value) async throws(StorageError) {
        try await update { (value: inout Value) in value = newValue }
    }

    /// Reads the document again, adopting and posting what another writer committed.
    ///
    /// - Throws: ``StorageError`` when it could not be read; the value is left as it was.
    public func reload() async throws(StorageError) {
        try await readAgain(adopting: false)
    }

    /// Calls `handler` with every change, until the token is cancelled.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<Value>) -> Void
    ) -> ObservationToken {
        core.observe(on: delivery, handler)
    }

    /// The changes, as an asynchronous sequence.
    public func changes(
        buffering: NotificationChannel<StoreChange<Value>>.Buffering = .newest(1)
    ) -> AsyncStream<StoreChange<Value>> {
        core.changes(buffering: buffering)
    }

    /// Stops following other writers. The store keeps its value and can still be changed.
    public func stopFollowing() {
        watch.withLock { $0 }?.cancel()
    }

    // MARK: Machinery

    private static func run<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result, on value: inout Value
    ) -> Swift.Result<Result, Failure> {
        do throws(Failure) { return .success(try body(&value)) } catch { return .failure(error) }
    }

    /// Adopts what an own commit left on the storage.
    private func adopt(_ committed: Value) {
        core.update(origin: .local) { state in
            adopted.withLock { $0 += 1 }
            state = committed
        }
    }

    /// Reads the document and adopts it, unless an own commit was adopted meanwhile (it is
    /// newer); with `adopting`, it counts as local.
    private func readAgain(adopting: Bool, heard: Bool = false) async throws(StorageError) {
        let before = adopted.withLock { $0 }
        let loaded = try await storage.load(document, heard: heard)
        if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
        core.update(origin: adopting ? .local : .otherProcess) { state in
            guard adopted.withLock({ $0 }) == before else { return }
            state = loaded.value
        }
    }

    /// The storage's watch heard of another writer's commit: the document is read, once at a
    /// time, and again if more news came in meanwhile.
    private func heardNews() {
        let start = following.withLock { state -> Bool in
            if state.reading {
                state.again = true
                return false
            }
            state = (true, false)
            return true
        }
        guard start else { return }
        Task { [weak self] in
            while let self {
                do throws(StorageError) { try await self.readAgain(adopting: false, heard: true) } catch {
                    self.reportIssue(.storageRecovered(error))
                }
                let again = self.following.withLock { state -> Bool in
                    if state.again {
                        state.again = false
                        return true
                    }
                    state.reading = false
                    return false
                }
                if !again { return }
            }
        }
    }
}

/// One task at a time, in turn, without holding a thread while waiting.
private final class TurnTaking: Sendable {
    private let state = Locked<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits, suspended, until it is this task's turn.
    func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends this task's turn: the next waiting task's begins.
    func end() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
