import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

/// Overrides live in a task-local value; these check that `withEscapedStores` carries them
/// across the hops that drop task-locals: GCD and OperationQueue observers.
@Suite(.productionStoresAllowed) struct EscapedStoresTests {
    @Test func anOverrideIsSeenInsideDispatchQueueAsync() async {
        let seen = await withStores {
            $0.counter = CounterStub(count: 41)
        } operation: {
            await withCheckedContinuation { (done: CheckedContinuation<(plainIsProduction: Bool, escaped: Int), Never>) in
                withEscapedStores { stores in
                    DispatchQueue.global().async {
                        let plain = StoreValues.current.counter is CounterStore
                        let escaped = stores.yield { StoreValues.current.counter.count }
                        done.resume(returning: (plain, escaped))
                    }
                }
            }
        }
        #expect(seen.escaped == 41)
        #expect(seen.plainIsProduction, "without the escape, the hop loses the override (this is what the API is for)")
    }

    @Test func anOverrideIsSeenInsideAnOperationQueueObserver() async {
        let center = NotificationCenter()
        let queue = OperationQueue()
        let name = Notification.Name("EscapedStoresTests.ping")
        let seen = await withStores {
            $0.counter = CounterStub(count: 17)
        } operation: {
            await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
                let observer = withEscapedStores { stores in
                    center.addObserver(forName: name, object: nil, queue: queue) { _ in
                        done.resume(returning: stores.yield { StoreValues.current.counter.count })
                    }
                }
                // Posted from a detached task: nothing of this scope reaches the observer but
                // what it captured.
                let box = UncheckedBox(observer)
                Task.detached {
                    center.post(name: name, object: nil)
                    center.removeObserver(box.value)
                }
            }
        }
        #expect(seen == 17)
    }

    @Test func asyncYieldRunsTheOperationWithTheCapturedValues() async {
        let stores = withStores {
            $0.counter = CounterStub(count: 8)
        } operation: {
            withEscapedStores { $0 }
        }
        #expect(StoreValues.current.counter is CounterStore)
        let count = await Task.detached {
            await stores.yield {
                await Task.yield(); return StoreValues.current.counter.count
            }
        }.value
        #expect(count == 8)
    }
}

private struct UncheckedBox: @unchecked Sendable {
    let value: any NSObjectProtocol
    init(_ value: any NSObjectProtocol) { self.value = value }
}
