import Foundation
@testable import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import Stores
import Testing
import Timers

/// A boost started by an item whose own record was not written (the process was killed, or the
/// write failed) is read back from the ledger entry that spent the item: it showed
/// `8760:10:00 left` with the date set back a year, and the item use said "could not be
/// written … try again" though the item was spent and the boost ran.
@Suite("A boost read back from its grant")
struct BoostGrantReadBackTests {
    private typealias ManualBoot = BoostRelaunchClockTests.ManualBoot

    /// Problems reported by the stores.
    final class Issues: Sendable {
        private let all = Locked<[String]>([])
        func append(_ issue: StoreIssue) { all.withLock { $0.append("\(issue)") } }
        var descriptions: [String] { all.withLock { $0 } }
    }
    private static let year: TimeInterval = 365 * 86_400

    private static func launch(
        folder: URL, wall: ManualWallClock, boot: ManualBoot, issues: Issues = Issues()
    ) -> (BoostTimeManager, PurchaseManager) {
        let center = NotificationCenter()
        let storage = FileStorage(folder: folder)
        let boost = BoostTimeManager(
            clock: ManualClock(), wallClock: wall.wallClock, bootClock: boot.clock, storage: storage, center: center,
            watching: .off, reportIssue: { issues.append($0) })
        let purchases = PurchaseManager(
            storage: storage, wallClock: wall.wallClock, boost: boost, center: center, watching: .off,
            reportIssue: { issues.append($0) })
        return (boost, purchases)
    }

    @Test func anItemUseWhoseBoostRecordFailsSucceedsAndTheBoostIsProtectedAsOneWrittenNormally() async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let boot = ManualBoot(id: "boot-a", sinceBoot: .seconds(1_000))
            let issues = Issues()
            let (boost, purchases) = Self.launch(folder: folder, wall: wall, boot: boot, issues: issues)
            try await purchases.buy(.boostItems(2))

            // The ledger is written in place; the boost record, a new file, finds the disk full
            // at its rename.
            let faults = FileFaults([.rename: [ENOSPC]])
            try FileFaults.$current.withValue(faults) {
                try purchases.useBoostItem(duration: 600)
            }
            #expect(faults.isUsedUp)
            #expect(purchases.ownedBoostItems == 1)
            #expect(boost.remainingSeconds == 600, "the item was spent: its boost runs here")
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "boost.json").path(percentEncoded: false)))
            let said = issues.descriptions.joined(separator: "\n")
            #expect(said.contains("The item was spent and the boost runs"), "\(said)")
            #expect(!said.localizedCaseInsensitiveContains("try again"), "\(said)")

            // Relaunched on the same boot a minute later with the date a year back: the boot
            // time line rules.
            boot.advance(by: .seconds(60))
            wall.set(to: wall.now.addingTimeInterval(60 - Self.year))
            #expect(Self.launch(folder: folder, wall: wall, boot: boot).0.remainingSeconds == 540)
            // After a restart, a year back: at most the boost's length.
            boot.restart(as: "boot-b")
            #expect(Self.launch(folder: folder, wall: wall, boot: boot).0.remainingSeconds == 600)
        }
    }
}
