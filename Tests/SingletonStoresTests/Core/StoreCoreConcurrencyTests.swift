import SingletonStoresTestSupport
import Dispatch
import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresLocking
import Testing

@Suite(.ownThread) struct StoreCoreConcurrencyTests {
    /// 8 threads × 10,000 increments: no update is lost, every one is posted exactly once, and
    /// observers see the changes in commit order.
    @Test func eightThreadsTimesTenThousandIncrementsLoseNothingAndPostEveryChange() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let observed = Locked((count: 0, inOrder: true, last: 0))
        let token = store.core.observe { change in
            observed.withLock { state in
                state.count += 1
                if change.old != state.last || change.new != change.old + 1 { state.inOrder = false }
                state.last = change.new
            }
        }
        onThreads(8) { for _ in 0..<10_000 { store.increment() } }
        token.cancel()

        let result = observed.withLock { $0 }
        #expect(store.count == 80_000)
        #expect(result.count == 80_000)
        #expect(result.inOrder, "changes must arrive in commit order: each old == previous new")
    }

    /// An observer that reads and writes the store it observes, from inside its handler, does
    /// not deadlock: nothing is posted while the lock is held.
    @Test func observerThatReadsAndWritesTheSameStoreDoesNotDeadlock() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let seen = Recorder<Int>()
        let token = store.core.observe { change in
            seen.append(store.count)  // read from inside the handler
            if change.new < 10 { store.increment() }  // write from inside the handler
        }
        store.increment()
        token.cancel()
        #expect(store.count == 10)
        #expect(seen.count == 10)
    }

    /// Re-entrant writes are delivered after the handler that made them returns, never nested.
    @Test func reentrantChangeIsDeliveredAfterTheCurrentHandlerReturns() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let log = Recorder<String>()
        let token = store.core.observe { change in
            log.append("begin \(change.new)")
            if change.new == 1 { store.increment() }
            log.append("end \(change.new)")
        }
        store.increment()
        token.cancel()
        #expect(log.values == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    /// Two observers on different threads' writes: each sees every change exactly once.
    @Test func everyObserverSeesEveryChangeOnce() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let first = Recorder<Int>(), second = Recorder<Int>()
        let a = store.core.observe { first.append($0.new) }
        let b = store.core.observe { second.append($0.new) }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 { store.increment() }
        }
        a.cancel(); b.cancel()
        #expect(first.values == Array(1...2_000))
        #expect(second.values == Array(1...2_000))
    }
}
