import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Stores
import Testing
import Timers

/// A boost record no boost writes, and a `boost.json` that can't be used: never a boost shown
/// that did not run, never an item spent on a boost that does not run.
@Suite("Boost records that can't be used")
struct BoostUnusableRecordTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// From outside: a `boost.json` whose end is in the year 9999, with no length recorded,
    /// showed `876000:00:00 left`. Every start is clamped to the longest boost (100 years), so
    /// no boost writes it: it is refused, shown as no boost and reported, and a start replaces it.
    @Test func aRecordEndingFurtherAheadThanTheLongestBoostIsRefused() throws {
        try withTemporaryFolder { folder in
            let json = #"{"formatVersion": 2, "value": {"endDate": "9999-12-31T00:00:00Z"}}"#
            try Data(json.utf8).write(to: folder.appending(path: "boost.json"))
            let reports = Recorder<StoreIssue>()
            let wall = ManualWallClock(now: Self.now)
            let boost = BoostTimeManager(
                clock: ManualClock(), wallClock: wall.wallClock, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off, reportIssue: { reports.append($0) })
            #expect(!boost.isInBoostTime)
            #expect(boost.remainingSeconds == 0)
            #expect(reports.values.contains { "\($0)".contains("further ahead than the longest countdown") }, "\(reports.values)")
            try boost.start(duration: 600)
            #expect(boost.remainingSeconds == 600)

            // A boost of the longest length, written by a start, is shown.
            try boost.start(duration: Int(BoostTimeManager.maximumDuration.components.seconds))
            let relaunched = BoostTimeManager(
                clock: ManualClock(), wallClock: wall.wallClock, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off, reportIssue: { _ in })
            #expect(relaunched.isInBoostTime)
        }
    }

    /// From outside: `boost use` with a FIFO named `boost.json`, or another program's
    /// `boost.json`, in a folder the library did not make, said "Used a boost item: 00:00 left"
    /// and spent the item; then no boost ran. The use is refused before the item is spent.
    @Test(arguments: ["fifo", "another program's file"])
    func usingAnItemWhenTheBoostRecordCantBeWrittenSpendsNothing(planted: String) async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Self.now)
            let storage = FileStorage(folder: folder)
            let boost = BoostTimeManager(
                clock: ManualClock(), wallClock: wall.wallClock, storage: storage, center: NotificationCenter(),
                watching: .off, reportIssue: { _ in })
            let purchases = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, boost: boost, center: NotificationCenter(), watching: .off,
                reportIssue: { _ in })
            try await purchases.buy(.boostItems(2))
            let path = folder.appending(path: "boost.json").path(percentEncoded: false)
            if planted == "fifo" {
                try #require(mkfifo(path, 0o644) == 0)
            } else {
                try Data(#"{"volume": 11}"#.utf8).write(to: URL(filePath: path))
            }
            #expect {
                try purchases.useBoostItem(duration: 600)
            } throws: { error in
                guard case .storage(let problem) = error as? PurchaseError else { return false }
                return problem.file?.lastPathComponent == "boost.json"
            }
            #expect(purchases.ownedBoostItems == 2)
            #expect(!boost.isInBoostTime)
            let relaunched = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, boost: boost, center: NotificationCenter(), watching: .off,
                reportIssue: { _ in })
            #expect(relaunched.ownedBoostItems == 2)
            #expect(relaunched.purchaseLedger.latestBoostGrant == nil)
        }
    }
}
