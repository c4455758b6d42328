import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

/// The change log: every committed change of every store on a center, local or followed from
/// another process, filterable per store.
@Suite("StoreChangeLog", .ownThread)
struct StoreChangeLogTests {
    @Test func everyStoresChangesReachOneSinkAndOtherPostsDoNot() throws {
        let center = NotificationCenter()
        let entries = Recorder<StoreChangeLog.Entry>()
        let log = StoreChangeLog.start(center: center) { entries.append($0) }
        let counter = StoreCore(0, channel: NotificationChannel("Counter.changed"), center: center)
        let draft = ValueStore(stub: "", center: center)
        counter.update { $0 += 1 }
        try draft.set("Hello")
        counter.update { $0 += 0 }  // no change, no entry
        center.post(name: Notification.Name("Unrelated"), object: nil, userInfo: ["payload": 5])
        log.cancel()
        counter.update { $0 += 1 }
        #expect(entries.values.map(\.description) == ["Counter.changed: 0 → 1", "SingletonStores.ValueStore.stub:  → Hello"])
        #expect(entries.values.allSatisfy { !$0.isFromOtherProcess })
    }

    @Test func aLogCanFollowSomeStoresOnly() {
        let center = NotificationCenter()
        let entries = Recorder<String>()
        let log = StoreChangeLog.start(center: center, stores: ["B"]) { entries.append($0.store) }
        defer { log.cancel() }
        let a = StoreCore(0, channel: NotificationChannel("A"), center: center)
        let b = StoreCore(0, channel: NotificationChannel("B"), center: center)
        a.set(1)
        b.set(1)
        a.set(2)
        #expect(entries.values == ["B"])
    }

    @Test func aChangeFollowedFromAnotherProcessIsToldApart() async throws {
        try await withTemporaryFolder { folder in
            let center = NotificationCenter()
            let entries = Recorder<StoreChangeLog.Entry>()
            let log = StoreChangeLog.start(center: center) { entries.append($0) }
            defer { log.cancel() }
            let here = ValueStore(
                key: "note", default: "", storage: FileStorage(folder: folder), center: center, watching: .automatic,
                reportIssue: { _ in })
            let origins = Recorder<StoreChange<String>.Origin>()
            let token = here.observe { origins.append($0.origin) }
            defer { token.cancel() }
            try here.set("mine")
            let elsewhere = ValueStore(
                key: "note", default: "", storage: FileStorage(folder: folder), center: NotificationCenter(),
                watching: .off, reportIssue: { _ in })
            try elsewhere.set("theirs")
            #expect(await waitUntil { here.value == "theirs" })
            #expect(await waitUntil { entries.values.count == 2 })
            #expect(entries.values.map(\.isFromOtherProcess) == [false, true])
            #expect(entries.values.last?.description == "SingletonStores.ValueStore.note: mine → theirs (another process)")
            #expect(origins.values == [.local, .otherProcess])
            #expect(StoreChange(old: 1, new: 2, origin: .otherProcess) == StoreChange(old: 1, new: 2), "origin is not compared")
        }
    }
}
