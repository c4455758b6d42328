import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStores
import Testing

@Suite struct StoreCoreTests {
    let center = NotificationCenter()

    @Test func committedChangeIsPostedOnceWithOldAndNewValues() {
        let store = CounterStore(center: center)
        let received = Recorder<StoreChange<Int>>()
        let token = store.core.observe { received.append($0) }
        store.increment()
        store.add(5)
        #expect(received.values == [StoreChange(old: 0, new: 1), StoreChange(old: 1, new: 6)])
        #expect(store.count == 6)
        token.cancel()
    }

    @Test func writeThatChangesNothingPostsNothing() {
        let store = CounterStore(center: center)
        let received = Recorder<StoreChange<Int>>()
        let token = store.core.observe { received.append($0) }
        store.add(0)
        store.core.set(0)
        store.core.update { value in value = value }
        #expect(received.values.isEmpty)
        token.cancel()
    }

    @Test func throwingTransactionLeavesStateUnchangedAndPostsNothing() {
        struct Refused: Error {}
        let store = CounterStore(center: center)
        let received = Recorder<StoreChange<Int>>()
        let token = store.core.observe { received.append($0) }
        #expect(throws: Refused.self) {
            try store.core.update { (value: inout Int) throws(Refused) in
                value = 99
                throw Refused()
            }
        }
        #expect(store.count == 0)
        #expect(received.values.isEmpty)
        token.cancel()
    }

    @Test func transactionReturnsItsResult() {
        let store = CounterStore(center: center)
        let doubled = store.core.update { value -> Int in
            value = 21
            return value * 2
        }
        #expect(doubled == 42)
        #expect(store.core.read { $0 + 1 } == 22)
    }

    @Test func classicObserverSeesOldAndNewInUserInfoAndCustomObject() {
        let core = StoreCore(10, channel: .counter, center: center, object: { $0.new })
        let received = Recorder<String>()
        let observer = center.addObserver(forName: NotificationChannel<StoreChange<Int>>.counter.name, object: nil, queue: nil) {
            note in
            let old = note.userInfo?["old"] as? Int ?? -1
            let new = note.userInfo?["new"] as? Int ?? -1
            let object = note.object as? Int ?? -1
            received.append("\(old)→\(new) object \(object)")
        }
        core.set(9)
        center.removeObserver(observer)
        #expect(received.values == ["10→9 object 9"])
    }

    @Test func eachPostCarriesItsOwnUserInfoWithExactlyThreeEntries() {
        let core = StoreCore(0, channel: .counter, center: center)
        let received = Recorder<String>()
        let observer = center.addObserver(forName: NotificationChannel<StoreChange<Int>>.counter.name, object: nil, queue: nil) {
            note in
            let info = note.userInfo ?? [:]
            let payload = info[NotificationChannel<StoreChange<Int>>.payloadKey] as? StoreChange<Int>
            let old = info["old"] as? Int ?? -1
            let new = info["new"] as? Int ?? -1
            received.append("\(info.count) entries: \(old)→\(new), payload \(payload?.old ?? -1)→\(payload?.new ?? -1)")
        }
        for value in 1...3 { core.set(value) }
        center.removeObserver(observer)
        // Every table is a copy of one prepared layout: each must hold its own values.
        #expect(
            received.values == [
                "3 entries: 0→1, payload 0→1",
                "3 entries: 1→2, payload 1→2",
                "3 entries: 2→3, payload 2→3",
            ])
    }

    @Test func changesSequenceDeliversCommittedChanges() async {
        let store = CounterStore(center: center)
        let changes = store.core.changes(buffering: .unbounded)
        store.increment()
        store.increment()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == StoreChange(old: 0, new: 1))
        #expect(await iterator.next() == StoreChange(old: 1, new: 2))
    }
}
