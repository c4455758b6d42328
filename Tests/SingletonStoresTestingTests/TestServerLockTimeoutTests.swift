import Foundation
import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing

/// The test server's lock timeout, which the conformance checks of the storages on it rely on:
/// a wait gives up when one holder kept the key for the whole timeout, never because a queue of
/// holders, each quick, took that long in all (as on a loaded machine, where eight concurrent
/// transactions of one key once gave up after 5 s and failed four conformance tests).
@Suite("The test server's lock timeout")
struct TestServerLockTimeoutTests {
    /// Timers that fire when the test says, not on the clock.
    final class HandTimers: Sendable {
        private let pending = Locked<[@Sendable () -> Void]>([])
        var count: Int { pending.withLock { $0.count } }
        func add(_ fire: @escaping @Sendable () -> Void) { pending.withLock { $0.append(fire) } }
        /// Fires the oldest timer not fired yet.
        func fireNext() {
            let fire = pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            fire?()
        }
    }

    final class Flag: Sendable {
        private let raised = Locked(false)
        var isRaised: Bool { raised.withLock { $0 } }
        func raise() { raised.withLock { $0 = true } }
    }

    /// A transaction that holds the key from a body blocked on a thread of its own until
    /// `release` is signalled; `entered` tells when it holds it.
    static func hold(
        _ key: String, on storage: TestNetworkStorage, executor: DedicatedThreadExecutor, release: DispatchSemaphore
    ) -> (entered: Flag, task: Task<Void, any Error>) {
        let entered = Flag()
        let task = Task(executorPreference: executor) {
            _ = try await storage.transaction(key, waits: true) { _ in
                entered.raise()
                release.wait()
                return DocumentDecision((), change: DocumentChange(bytes: Data("held".utf8)))
            }
        }
        return (entered, task)
    }

    @Test func aWaitGivesUpOnlyWhenOneHolderKeptTheKeyForTheWholeTimeout() async throws {
        let timers = HandTimers()
        let server = TestServer(lockTimeout: .seconds(5)) { _, fire in timers.add(fire) }
        let storage = TestNetworkStorage(server: server)
        let key = "queue"
        let first = DedicatedThreadExecutor(name: "first holder")
        let second = DedicatedThreadExecutor(name: "second holder")
        defer {
            first.stop()
            second.stop()
        }
        let releaseFirst = DispatchSemaphore(value: 0)
        let releaseSecond = DispatchSemaphore(value: 0)
        defer {
            releaseFirst.signal()
            releaseSecond.signal()
        }

        let firstHolder = Self.hold(key, on: storage, executor: first, release: releaseFirst)
        #expect(await waitUntil { firstHolder.entered.isRaised })
        let secondHolder = Self.hold(key, on: storage, executor: second, release: releaseSecond)
        #expect(await waitUntil { timers.count == 1 })
        let last = Task {
            try await storage.transaction(key, waits: true) { _ in DocumentDecision(()) }
        }
        #expect(await waitUntil { timers.count == 2 && server.state.withLock { $0.waiting[key]?.count } == 2 })

        // The first holder lets go: the key goes to the second, so its timer ends nothing.
        releaseFirst.signal()
        try await firstHolder.task.value
        #expect(await waitUntil { secondHolder.entered.isRaised })
        timers.fireNext()
        // The last waiter's timer was set while the first held the key: it waits again.
        timers.fireNext()
        #expect(timers.count == 1)
        #expect(server.state.withLock { $0.waiting[key]?.count } == 1)
        // The second holder kept the key for a whole timeout: now the last one gives up.
        timers.fireNext()
        await #expect {
            _ = try await last.value
        } throws: { error in
            guard case StorageError.lockTimedOut(_, _, let waited) = error else { return false }
            return waited == .seconds(5)
        }
        releaseSecond.signal()
        try await secondHolder.task.value
        #expect(server.state.withLock { $0.documents[key] } == Data("held".utf8))
        #expect(timers.count == 0)
    }
}
