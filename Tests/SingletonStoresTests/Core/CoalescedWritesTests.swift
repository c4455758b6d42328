import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing
import Timers

/// `StoreWritePolicy.coalescing(within:clock:)`: a set changes memory and posts at once; the disk
/// gets the newest value once per window, the last one always, on the store's clock.
@Suite("Coalesced writes")
struct CoalescedWritesTests {
    /// A storage that records each value it writes.
    final class RecordingStorage: StoreStorage {
        let base = InMemoryStorage()
        private let recorded = Locked<[Int]>([])

        /// The values written, oldest first.
        var writes: [Int] { recorded.withLock { $0 } }

        func read(_ key: String) throws(StorageError) -> StoredBytes? {
            try base.read(key)
        }

        func transaction<Result>(
            _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
        ) throws(StorageError) -> DocumentCommit<Result>? {
            var wrote = false
            let commit = try base.transaction(key, waits: waits) { (current) throws(StorageError) in
                let decision = try body(current)
                wrote = decision.change.bytes != nil
                return decision
            }
            if wrote, let value = base.value(Int.self, forKey: key) { recorded.withLock { $0.append(value) } }
            return commit
        }

        func watch(
            forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
        ) throws(StorageError) -> StorageWatch? {
            try base.watch(forKey: key, watching, onChange: onChange)
        }
    }

    struct Fixture {
        let clock = ManualClock()
        let storage = RecordingStorage()
        let issues = Recorder<StoreIssue>()
        let changes = Recorder<Int>()
        let store: ValueStore<Int>
        let token: ObservationToken

        init(window: Duration = .seconds(1)) {
            let issues = issues
            store = ValueStore(
                key: "volume", default: 0, storage: storage, center: NotificationCenter(), watching: .off,
                writePolicy: .coalescing(within: window, clock: clock), reportIssue: { issues.append($0) })
            let changes = changes
            token = store.observe { changes.append($0.new) }
        }
    }

    @Test func aBurstWithinTheWindowIsOneWriteOfTheLastValueAtItsEnd() async throws {
        let fixture = Fixture()
        for value in 1...10 { try fixture.store.set(value) }
        // Memory and observers have every value at once; the disk has none of them yet.
        #expect(fixture.store.value == 10)
        #expect(fixture.changes.values == Array(1...10))
        #expect(fixture.storage.writes == [])
        await fixture.clock.advance(by: .milliseconds(999))
        #expect(fixture.storage.writes == [])
        await fixture.clock.advance(by: .milliseconds(1))
        #expect(fixture.storage.writes == [10])
        #expect(fixture.storage.base.value(Int.self, forKey: "volume") == 10)
        #expect(fixture.issues.values == [])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func aSetAfterTheWindowOpensTheNextOneAndItsLastValueIsWritten() async throws {
        let fixture = Fixture()
        try fixture.store.set(1)
        await fixture.clock.advance(by: .seconds(1))
        #expect(fixture.storage.writes == [1])
        // Nothing pending: time passing writes nothing more.
        await fixture.clock.advance(by: .seconds(5))
        #expect(fixture.storage.writes == [1])
        try fixture.store.set(2)
        await fixture.clock.advance(by: .milliseconds(500))
        try fixture.store.set(3)
        #expect(fixture.storage.writes == [1])
        // The window opened by 2 ends: the trailing write has the newest value, 3.
        await fixture.clock.advance(by: .milliseconds(500))
        #expect(fixture.storage.writes == [1, 3])
        await fixture.clock.advance(by: .seconds(5))
        #expect(fixture.storage.writes == [1, 3])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func aDragOfOneHundredTwentySetsASecondWritesOncePerWindow() async throws {
        let fixture = Fixture(window: .milliseconds(500))
        var value = 0
        for _ in 0..<(120 * 3) {
            value += 1
            try fixture.store.set(value)
            await fixture.clock.advance(by: .nanoseconds(8_333_333))
        }
        await fixture.clock.advance(by: .milliseconds(500))
        // Three seconds of drag: six windows, each one write; the last one holds the last value.
        #expect((6...7).contains(fixture.storage.writes.count), "\(fixture.storage.writes)")
        #expect(fixture.storage.writes.last == 360)
        #expect(fixture.storage.writes == fixture.storage.writes.sorted())
        withExtendedLifetime(fixture.token) {}
    }

    @Test func flushWritesThePendingValueNowAndTheWindowWritesNothingMore() async throws {
        let fixture = Fixture()
        try fixture.store.set(5)
        try fixture.store.flush()
        #expect(fixture.storage.writes == [5])
        await fixture.clock.advance(by: .seconds(2))
        #expect(fixture.storage.writes == [5])
        // Nothing pending: a flush writes nothing.
        try fixture.store.flush()
        #expect(fixture.storage.writes == [5])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func anUpdateWritesThePendingValueFirstInTheSameWrite() async throws {
        let fixture = Fixture()
        try fixture.store.set(5)
        try fixture.store.update { $0 += 1 }
        #expect(fixture.storage.writes == [6])
        #expect(fixture.store.value == 6)
        await fixture.clock.advance(by: .seconds(2))
        #expect(fixture.storage.writes == [6])
        #expect(fixture.changes.values == [5, 6])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func aFailedWriteIsReportedLostAndTheStoreGoesBackToTheValueOnDisk() async throws {
        let fixture = Fixture()
        try fixture.store.set(1)
        await fixture.clock.advance(by: .seconds(1))
        let failure = StorageError.writeFailed(file: InMemoryStorage.location(forKey: "volume"), reason: "disk full")
        fixture.storage.base.simulateWriteFailure(failure, forKey: "volume")
        try fixture.store.set(2)
        #expect(fixture.store.value == 2)
        await fixture.clock.advance(by: .seconds(1))
        #expect(fixture.issues.values == [.pendingValueLost(key: "volume", failure)])
        #expect(
            fixture.issues.values.first?.description
                == "The last value set on the store \"volume\" was not saved and is lost: The saved data at "
                + "/in-memory/volume.json could not be written: disk full. The file on disk is unchanged. The saved document "
                + "keeps the value saved before it; set the value again once the problem is fixed.")
        // What the disk holds, posted: the set that could not be saved is undone.
        #expect(fixture.store.value == 1)
        #expect(fixture.changes.values == [1, 2, 1])
        #expect(fixture.storage.writes == [1])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func flushThrowsAFailedWriteAndReportsNothing() async throws {
        let fixture = Fixture()
        let failure = StorageError.writeFailed(file: InMemoryStorage.location(forKey: "volume"), reason: "disk full")
        fixture.storage.base.simulateWriteFailure(failure, forKey: "volume")
        try fixture.store.set(3)
        #expect(throws: failure) { try fixture.store.flush() }
        #expect(fixture.store.value == 0)
        #expect(fixture.issues.values == [])
        await fixture.clock.advance(by: .seconds(2))
        #expect(fixture.issues.values == [])
        withExtendedLifetime(fixture.token) {}
    }

    @Test func theImmediatePolicyWritesEverySetBeforeItReturns() throws {
        let storage = RecordingStorage()
        let store = ValueStore(key: "volume", default: 0, storage: storage, center: NotificationCenter(), watching: .off)
        #expect(store.writePolicy.window == nil)
        for value in 1...3 { try store.set(value) }
        #expect(storage.writes == [1, 2, 3])
    }

    @Test func windowsAreRangeChecked() {
        #expect(StoreWritePolicy.coalescing(within: .zero).window == nil)
        #expect(StoreWritePolicy.coalescing(within: .seconds(-1)).window == nil)
        #expect(StoreWritePolicy.coalescing(within: .seconds(3_600)).window == StoreWritePolicy.maximumWindow)
        #expect(StoreWritePolicy.coalescing(within: .milliseconds(250)).description == "coalescing(within: 0.25 seconds)")
        #expect(StoreWritePolicy.immediate.description == "immediate")
    }
}
