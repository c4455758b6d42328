import Foundation
import SingletonStores
import SingletonStoresLocking

/// A stand-in for a database several storages share: documents by key, one transaction of a key
/// at a time (the others suspend, holding no thread), commits announced to every other storage.
package final class TestServer: Sendable {
    package struct State {
        package var documents: [String: Data] = [:]
        package var busy: Set<String> = []
        package var waiting: [String: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)]] = [:]
        /// How many times each key was taken or handed over: a waiter's timer that finds a later
        /// count than when it was set starts again, so a wait gives up only when one holder kept
        /// the key for the whole timeout, not when a queue of quick holders took that long.
        package var holders: [String: Int] = [:]
        package var watchers: [UUID: (storage: UUID, key: String, call: @Sendable () -> Void)] = [:]
        package var down = false
        /// Thrown by the next commit once its bytes are in place (`notDurable`,
        /// `commitOutcomeUnknown`), or instead of it (`commitOutcomeUnknown` with `committing` false).
        package var afterCommit: (error: StorageError, committing: Bool)?
        /// Transactions suspended before they run, until `release()`.
        package var holding = false
        package var held: [CheckedContinuation<Void, Never>] = []

        /// Takes `key` for a transaction, counting its holder, if no transaction holds it.
        mutating func take(_ key: String) -> Bool {
            guard busy.insert(key).inserted else { return false }
            holders[key, default: 0] += 1
            return true
        }

        /// Ends a transaction of `key`: hands the key to its first waiter (who is counted as its
        /// next holder, the key staying busy) and returns that waiter to resume, or frees the key.
        mutating func handOn(_ key: String) -> CheckedContinuation<Bool, Never>? {
            guard var queue = waiting[key], !queue.isEmpty else {
                busy.remove(key)
                return nil
            }
            let next = queue.removeFirst()
            waiting[key] = queue
            holders[key, default: 0] += 1
            return next.continuation
        }
    }
    package let state = Locked(State())
    /// How long one holder may keep a key before a transaction waiting for it gives up, as a
    /// server's lock timeout: long enough that a loaded test run's scheduling never reaches it.
    package let lockTimeout: Duration
    /// Calls its closure once the duration has passed: a dispatch timer unless a test passes its
    /// own, to fire the lock timeouts by hand.
    let timer: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    /// A server whose waits for a key give up after `lockTimeout` of one holder, timed by
    /// `timer` (by default a dispatch timer, off the cooperative pool, whose threads a loaded
    /// test run can hold for minutes).
    package init(
        lockTimeout: Duration = .seconds(15),
        timer: (@Sendable (Duration, @escaping @Sendable () -> Void) -> Void)? = nil
    ) {
        self.lockTimeout = lockTimeout
        self.timer =
            timer ?? { after, fire in
                let (seconds, attoseconds) = after.components
                DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) * 1e-18, execute: fire)
            }
    }

    /// Transactions from now on suspend before running, until `release()`.
    package func hold() { state.withLock { $0.holding = true } }

    /// How many transactions are suspended by `hold()`.
    package var heldCount: Int { state.withLock { $0.held.count } }

    package func release() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        held.forEach { $0.resume() }
    }
}

/// A storage on a ``TestServer``: every call suspends as a network call would.
package struct TestNetworkStorage: AsyncStoreStorage {
    package let server: TestServer
    let id = UUID()

    package init(server: TestServer) { self.server = server }

    package var description: String { "test server at db.example:5432/app" }

    package static func location(_ key: String) -> URL {
        URL(string: "test://db.example:5432/app/\(key)") ?? URL(filePath: "/\(key)")
    }

    package func read(_ key: String) async throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        await Task.yield()
        let (down, bytes) = server.state.withLock { ($0.down, $0.documents[key]) }
        if down { throw .backendUnreachable(backend: description, reason: "connection refused") }
        return bytes.map { StoredBytes($0, location: Self.location(key)) }
    }

    package func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        let key = try Self.validKey(key)
        if server.state.withLock({ $0.down }) { throw .backendUnreachable(backend: description, reason: "connection refused") }
        let holding = server.state.withLock { $0.holding }
        if holding {
            await withCheckedContinuation { continuation in
                let still = server.state.withLock { state -> Bool in
                    guard state.holding else { return false }
                    state.held.append(continuation)
                    return true
                }
                if !still { continuation.resume() }
            }
        }
        // The key's lock: taken, or waited for without a thread.
        let free = server.state.withLock { $0.take(key) }
        if !free {
            guard waits else { return nil }
            // A bounded wait, as a server's lock timeout: handed the key, or given up on.
            let ticket = UUID()
            let server = server
            let handed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let holder = server.state.withLock { state -> Int? in
                    if state.take(key) { return nil }
                    state.waiting[key, default: []].append((ticket, continuation))
                    return state.holders[key, default: 0]
                }
                guard let holder else {
                    continuation.resume(returning: true)
                    return
                }
                Self.expire(ticket, of: key, on: server, unlessHandedOnFrom: holder)
            }
            if !handed {
                throw .lockTimedOut(file: Self.location(key), holder: nil, waited: server.lockTimeout)
            }
        }
        defer {
            server.state.withLock { $0.handOn(key) }?.resume(returning: true)
        }
        await Task.yield()
        let current = server.state.withLock { $0.documents[key] }.map { StoredBytes($0, location: Self.location(key)) }
        let decision = try body(current)
        var kept: URL?
        if decision.change.settingAside != nil {
            kept = Self.location("\(key)~kept")
            server.state.withLock { $0.documents["\(key)~kept"] = $0.documents.removeValue(forKey: key) }
        }
        guard let bytes = decision.change.bytes else { return DocumentCommit(decision.result, keptAt: kept) }
        let failure = server.state.withLock { state -> (error: StorageError, committing: Bool)? in
            defer { state.afterCommit = nil }
            return state.afterCommit
        }
        if let failure, !failure.committing { throw failure.error }
        let calls = server.state.withLock { state -> [@Sendable () -> Void] in
            state.documents[key] = bytes
            return state.watchers.values.filter { $0.key == key && $0.storage != id }.map(\.call)
        }
        calls.forEach { $0() }
        if let failure { throw failure.error }
        return DocumentCommit(decision.result, keptAt: kept)
    }

    /// After the server's lock timeout, gives up the wait of `ticket` if the key is still held by
    /// the holder that held it when the timer was set (the count `holder`); if it was handed on
    /// since, waits again for the new holder. So a queue of quick holders that a loaded machine
    /// slows down never times out the last of them.
    private static func expire(_ ticket: UUID, of key: String, on server: TestServer, unlessHandedOnFrom holder: Int) {
        server.timer(server.lockTimeout) {
            enum Outcome {
                case handed
                case expired(CheckedContinuation<Bool, Never>)
                case waitsFor(Int)
            }
            let outcome = server.state.withLock { state -> Outcome in
                guard let index = state.waiting[key]?.firstIndex(where: { $0.id == ticket }),
                    let waiter = state.waiting[key]?[index]
                else { return .handed }
                let now = state.holders[key, default: 0]
                if now != holder { return .waitsFor(now) }
                state.waiting[key]?.remove(at: index)
                return .expired(waiter.continuation)
            }
            switch outcome {
            case .handed: break
            case .expired(let continuation): continuation.resume(returning: false)
            case .waitsFor(let next): expire(ticket, of: key, on: server, unlessHandedOnFrom: next)
            }
        }
    }

    package func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch? {
        let key = try Self.validKey(key)
        let token = UUID()
        server.state.withLock { $0.watchers[token] = (id, key, onChange) }
        let server = server
        return StorageWatch(
            mechanism: { .polling(interval: .zero) },
            stop: { server.state.withLock { _ = $0.watchers.removeValue(forKey: token) } })
    }
}

/// A ``TestNetworkStorage`` whose `readHeard` answers what a test chooses from the stored bytes
/// (by default, the stored bytes), counting both reads.
package final class HeardAnswering: AsyncStoreStorage {
    package let base: TestNetworkStorage
    private let answer: @Sendable (_ key: String, _ stored: StoredBytes?) -> StoredBytes?
    private let state = Locked((reads: 0, heard: 0))

    package init(
        base: TestNetworkStorage, answer: @escaping @Sendable (_ key: String, _ stored: StoredBytes?) -> StoredBytes? = { $1 }
    ) {
        self.base = base
        self.answer = answer
    }

    /// How many times `read` and `readHeard` were called.
    package var counts: (reads: Int, heard: Int) { state.withLock { $0 } }
    package var description: String { base.description }

    package func read(_ key: String) async throws(StorageError) -> StoredBytes? {
        state.withLock { $0.reads += 1 }
        return try await base.read(key)
    }

    package func readHeard(_ key: String) async throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        state.withLock { $0.heard += 1 }
        return answer(key, try await base.read(key))
    }

    package func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        try await base.transaction(key, waits: waits, body)
    }

    package func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch? {
        try await base.watch(forKey: key, onChange: onChange)
    }
}
