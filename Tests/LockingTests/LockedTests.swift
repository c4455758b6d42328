import Dispatch
import Foundation
import SingletonStoresLocking
import Testing

/// A shared home for a `Locked`, which is non-copyable and so cannot be captured directly.
private final class Shared<Value: Sendable>: Sendable {
    let locked: Locked<Value>
    init(_ value: Value) { locked = Locked(value) }
}

@Suite struct LockedTests {
    /// Contended critical sections on real threads: the case ThreadSanitizer misreports for a bare
    /// `Mutex` on Linux. Under `--sanitize=thread` this test also proves the hand-over is visible.
    /// The test waits for the threads without blocking a thread of the cooperative pool.
    @Test func serializesContendedCriticalSections() async {
        let shared = Shared([Int]())
        let group = DispatchGroup()
        for worker in 0..<4 {
            group.enter()
            Thread {
                for step in 0..<2_000 {
                    shared.locked.withLock { values in
                        values.append(worker * step)
                        values.append(contentsOf: repeatElement(0, count: 20))
                        values.removeLast(20)
                    }
                }
                group.leave()
            }.start()
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
        #expect(shared.locked.withLock { $0.count } == 8_000)
    }

    @Test func withLockIfAvailableRunsWhenTheLockIsFree() {
        let locked = Locked(1)
        #expect(
            locked.withLockIfAvailable { value -> Int in
                value += 1
                return value
            } == 2)
    }

    @Test func withLockIfAvailableDoesNotWaitForAHeldLock() {
        let locked = Locked(1)
        let inner = locked.withLock { _ in locked.withLockIfAvailable { $0 } }
        #expect(inner == nil)
    }

    @Test func throwingBodyLeavesTheValueAndRethrows() {
        struct Refused: Error {}
        let locked = Locked(5)
        #expect(throws: Refused.self) {
            try locked.withLock { (value: inout Int) throws(Refused) in
                throw Refused()
            }
        }
        #expect(locked.withLock { $0 } == 5)
    }
}
