import SingletonStoresTestSupport
import Dispatch
import Foundation
import Observation
import SingletonStores
import SingletonStoresLocking
import Testing

/// Swift Observation on `StoreCore`: what a SwiftUI view's `body` relies on, checked with
/// `withObservationTracking` directly.
@Suite(.ownThread) struct StoreCoreObservationTests {
    @Test func oneCommittedChangeTriggersOneOnChangeAndANoOpWriteNone() {
        let store = CounterStore(center: NotificationCenter())
        let changes = Locked(0)
        withObservationTracking {
            _ = store.core.state
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        store.core.set(0)
        #expect(changes.withLock { $0 } == 0, "a write that changes nothing triggers nothing")
        store.increment()
        #expect(changes.withLock { $0 } == 1)
        store.increment()
        #expect(changes.withLock { $0 } == 1, "onChange is one-shot until the view reads again")
    }

    @Test func readRegistersLikeState() {
        let core = StoreCore(Profile(name: "Aki", rank: 1), channel: .profileForObservation, center: NotificationCenter())
        let changes = Locked(0)
        withObservationTracking {
            _ = core.read { $0.name }
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        core.update { $0.name = "Kei" }
        #expect(changes.withLock { $0 } == 1)
    }

    /// The documented granularity: the dependency is on the whole state, so reading one field is
    /// invalidated by a change to another.
    @Test func readingOneFieldIsInvalidatedByAChangeToAnother() {
        let core = StoreCore(Profile(name: "Aki", rank: 1), channel: .profileForObservation, center: NotificationCenter())
        let changes = Locked(0)
        withObservationTracking {
            _ = core.state.name
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        core.update { $0.rank = 2 }
        #expect(changes.withLock { $0 } == 1)
    }

    @Test func onChangeSeesTheNewValueAndPrecedesThePost() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let log = Recorder<String>()
        let token = store.core.observe { log.append("post \($0.new)") }
        defer { token.cancel() }
        withObservationTracking {
            _ = store.count
        } onChange: {
            log.append("onChange \(store.count)")
        }
        store.increment()
        #expect(log.values == ["onChange 1", "post 1"])
    }

    @Test func anOnChangeThatWritesBackIntoTheStoreNeitherDeadlocksNorNests() {
        let store = CounterStore(center: NotificationCenter())
        let tracked = TrackedValues({ store.core.state }) { value in
            if value < 5 { store.increment() }  // writes back from inside onChange
        }
        store.increment()
        #expect(store.count == 5)
        #expect(tracked.values == [1, 2, 3, 4, 5])
    }

    /// 8 threads × 10,000 updates with a tracker that re-registers from its `onChange`: every
    /// change triggers it, in commit order, and the last value it sees is the final one.
    @Test(.hangLimit)
    func eightThreadsTimesTenThousandUpdatesWithAReRegisteringTracker() async throws {
        let store = CounterStore(center: NotificationCenter())
        let tracked = TrackedValues { store.core.state }
        try await runOffThePool { onThreads(8) { for _ in 0..<10_000 { store.increment() } } }
        let values = tracked.values
        #expect(store.count == 80_000)
        #expect(values.count == 80_000, "each change triggers the tracker once")
        #expect(values.last == 80_000, "no lost final value")
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "in commit order")
    }
}

private struct Profile: Equatable, Sendable {
    var name: String
    var rank: Int
}

extension NotificationChannel where Payload == StoreChange<Profile> {
    fileprivate static let profileForObservation = NotificationChannel("StoreCoreObservationTests.profile")
}
