import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresTesting
import Testing

extension NotificationChannel where Payload == StoreChange<String> {
    static let label = NotificationChannel("StoresTests.label")
}
extension NotificationChannel where Payload == StoreChange<Bool> {
    static let flag = NotificationChannel("StoresTests.flag")
}

@Suite struct ChangeRecorderTests {
    @Test func capturesChangesFromFourStoresInPostingOrder() {
        let center = NotificationCenter()
        let recorder = ChangeRecorder(center: center)
        let counter = CounterStore(center: center)
        let other = CounterStore(center: center, channel: .other)
        let label = StoreCore("a", channel: .label, center: center)
        let flag = StoreCore(false, channel: .flag, center: center)

        counter.increment()
        label.set("b")
        other.add(10)
        flag.set(true)
        counter.increment()
        flag.set(true)  // no change, not recorded

        #expect(
            recorder.changes == [
                RecordedChange(.counter, StoreChange(old: 0, new: 1)),
                RecordedChange(.label, StoreChange(old: "a", new: "b")),
                RecordedChange(.other, StoreChange(old: 0, new: 10)),
                RecordedChange(.flag, StoreChange(old: false, new: true)),
                RecordedChange(.counter, StoreChange(old: 1, new: 2)),
            ])
        #expect(recorder.newValues(of: .counter) == [1, 2])
        #expect(recorder.values(of: .label) == [StoreChange(old: "a", new: "b")])
    }

    @Test func recordedChangesDifferWhenPayloadOrChannelDiffers() {
        let a = RecordedChange(.counter, StoreChange(old: 0, new: 1))
        #expect(a != RecordedChange(.other, StoreChange(old: 0, new: 1)))
        #expect(a != RecordedChange(.counter, StoreChange(old: 0, new: 2)))
        #expect(a != RecordedChange(name: a.name, payload: "a string"))
    }

    @Test func ignoresPlainNotificationsAndStopsWhenAsked() {
        let center = NotificationCenter()
        let recorder = ChangeRecorder(center: center)
        let counter = CounterStore(center: center)
        center.post(name: Notification.Name("plain"), object: nil)
        counter.increment()
        recorder.stop()
        counter.increment()
        #expect(recorder.newValues(of: .counter) == [1])
        recorder.removeAll()
        #expect(recorder.changes.isEmpty)
    }
}
