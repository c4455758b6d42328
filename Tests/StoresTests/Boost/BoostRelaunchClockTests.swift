import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Stores
import Testing
import Timers

/// From outside: one item for a 10-minute boost showed `8760:10:00 left` after relaunching with
/// the clock a year back; the monotonic clock protects only within one process. The boost now
/// records its end on the device's boot time line too.
@Suite("The boost across relaunches with the date set back")
struct BoostRelaunchClockTests {
    /// A boot time line a test moves by hand.
    final class ManualBoot: Sendable {
        let state: Locked<(id: String, sinceBoot: Duration)>
        init(id: String, sinceBoot: Duration) { state = Locked((id, sinceBoot)) }
        var clock: BootClock {
            BootClock(bootID: { self.state.withLock { $0.id } }, sinceBoot: { self.state.withLock { $0.sinceBoot } })
        }
        func advance(by duration: Duration) { state.withLock { $0.sinceBoot += duration } }
        func restart(as id: String) { state.withLock { $0 = (id, .seconds(5)) } }
    }

    private static func launch(folder: URL, wall: ManualWallClock, boot: BootClock) -> BoostTimeManager {
        BoostTimeManager(
            clock: ManualClock(), wallClock: wall.wallClock, bootClock: boot, storage: FileStorage(folder: folder),
            center: NotificationCenter(), watching: .off, reportIssue: { _ in })
    }

    private static let year: TimeInterval = 365 * 86_400

    @Test func onTheSameBootADateSetBackBeforeARelaunchStretchesNothing() throws {
        try withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let boot = ManualBoot(id: "6f0c5e1a-boot-a", sinceBoot: .seconds(1_000))
            Self.launch(folder: folder, wall: wall, boot: boot.clock).startCountDown(duration: 600)

            boot.advance(by: .seconds(60))
            wall.set(to: wall.now.addingTimeInterval(60 - Self.year))  // a minute later, a year back
            #expect(Self.launch(folder: folder, wall: wall, boot: boot.clock).remainingSeconds == 540)

            wall.set(to: wall.now.addingTimeInterval(2 * Self.year))  // or a year ahead: not cut short either
            #expect(Self.launch(folder: folder, wall: wall, boot: boot.clock).remainingSeconds == 540)

            boot.advance(by: .seconds(540))
            #expect(!Self.launch(folder: folder, wall: wall, boot: boot.clock).isInBoostTime)
        }
    }

    @Test func afterARestartADateSetBackGivesBackAtMostTheTimeAlreadyRun() throws {
        try withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let boot = ManualBoot(id: "boot-a", sinceBoot: .seconds(1_000))
            Self.launch(folder: folder, wall: wall, boot: boot.clock).startCountDown(duration: 600)

            boot.restart(as: "boot-b")
            wall.set(to: wall.now.addingTimeInterval(120))
            #expect(Self.launch(folder: folder, wall: wall, boot: boot.clock).remainingSeconds == 480, "the date rules")
            wall.set(to: wall.now.addingTimeInterval(-Self.year))
            let relaunched = Self.launch(folder: folder, wall: wall, boot: boot.clock)
            #expect(relaunched.remainingSeconds == 600, "capped at what was left when the boost was written")
        }
    }

    @Test func withoutABootTimeLineTheDateAloneIsReadAsBefore() throws {
        try withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            Self.launch(folder: folder, wall: wall, boot: .unavailable).startCountDown(duration: 600)
            wall.set(to: wall.now.addingTimeInterval(100))
            #expect(Self.launch(folder: folder, wall: wall, boot: .unavailable).remainingSeconds == 500)
        }
    }

    @Test func aRecordWrittenByAnEarlierVersionStillLoads() throws {
        try withTemporaryFolder { folder in
            let json = #"{"formatVersion": 2, "value": {"endDate": "2023-11-14T22:23:20Z"}}"#
            try Data(json.utf8).write(to: folder.appending(path: "boost.json"))
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000 + 300))
            let boot = ManualBoot(id: "boot-a", sinceBoot: .seconds(1_000))
            #expect(Self.launch(folder: folder, wall: wall, boot: boot.clock).remainingSeconds == 300)
        }
    }

    #if os(Linux)
    @Test func theSystemBootClockKnowsThisBoot() throws {
        let id = try #require(BootClock.system.bootID())
        #expect(id.count == 36)
        let first = try #require(BootClock.system.sinceBoot())
        let second = try #require(BootClock.system.sinceBoot())
        #expect(first > .zero && second >= first)
    }
    #endif
}

/// From outside: with the clock at 9999-12-31 23:59, `boost use` failed with "This is a bug in
/// the app: report it", and `boost start` said "Boost started" while saving nothing.
@Suite("Dates past the year 9999")
struct BoostPastYear9999Tests {
    private static let lastMinute = Date(timeIntervalSince1970: 253_402_300_740)  // 9999-12-31T23:59:00Z

    @Test func startingABoostThatWouldEndAfter9999IsRefusedSayingToCheckTheClock() throws {
        try withTemporaryFolder { folder in
            let issues = Recorder<StoreIssue>()
            let boost = BoostTimeManager(
                clock: ManualClock(), wallClock: .fixed(Self.lastMinute), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off, reportIssue: { issues.append($0) })
            boost.startCountDown(duration: 600)
            #expect(!boost.isInBoostTime, "nothing was saved, so nothing runs")
            let text = issues.values.map(\.description).joined()
            #expect(text.contains("after the year 9999") && text.contains("Check the device's date and time"), "\(text)")
            #expect(!text.contains("bug"), "\(text)")
        }
    }

    @Test func usingAnItemThenIsRefusedTheSameWayAndSpendsNothing() async throws {
        try await withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let center = NotificationCenter()
            let boost = BoostTimeManager(
                clock: ManualClock(), wallClock: .fixed(Self.lastMinute), storage: storage, center: center, watching: .off,
                reportIssue: { _ in })
            let purchases = PurchaseManager(
                storage: storage, wallClock: .fixed(Self.lastMinute), boost: boost, center: center, watching: .off,
                reportIssue: { _ in })
            try await purchases.buy(.boostItems(1))
            #expect {
                try purchases.useBoostItem(duration: 600)
            } throws: { error in
                let text = "\(error)"
                return text.contains("after the year 9999") && text.contains("date and time") && !text.contains("bug")
            }
            #expect(purchases.ownedBoostItems == 1)
            #expect(!boost.isInBoostTime)
        }
    }
}
