import SingletonStoresTestSupport
import Foundation
import Testing

/// Boost items spent by several processes at once, and processes killed in the middle of
/// spending or buying: what a fresh launch finds afterwards.
@Suite("Boost items across processes and crashes", .ownThread)
struct BoostItemProcessTests {
    /// A day-long boost, so it is still running when the later processes look.
    private static let day = "86400"

    @Test func eightProcessesOnAnIdleBoostSpendOneItemAndStartOneBoost() async throws {
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let helper = try StressHelper(folder: folder)
                #expect(try helper.run("buy", "8").status == 0)

                let first = try helper.runTogether(copies: 8, "use", [Self.day])
                #expect(first.filter { $0.status == 0 }.count == 1, "exactly one started: \(first.map(\.standardOutput))")
                #expect(first.filter { $0.status == 3 }.count == 7, "the others were told a boost runs")
                var report = try helper.report()
                #expect(report.items == 7)
                #expect(report.usedEntries == 1)
                #expect(report.boostSeconds > 86_000)

                let second = try helper.runTogether(copies: 8, "use", [Self.day])
                #expect(second.allSatisfy { $0.status == 3 }, "\(second.map(\.standardOutput))")
                report = try helper.report()
                #expect(report.items == 7, "nothing spent while the boost runs")
                #expect(report.usedEntries == 1)
                #expect(report.problems == [])
            }
        }
    }

    /// Every point on the use-item path: killed there, the next launch shows the item unspent
    /// and no boost, or the item spent and its boost running to its original end.
    @Test func aCrashAtAnyPointOfUsingAnItemLosesNothing() async throws {
        try await runOffThePool {
            let points = try withTemporaryFolder { folder in
                let helper = try StressHelper(folder: folder)
                _ = try helper.run("buy", "1")
                return try helper.points("use", Self.day)
            }
            #expect(
                // The ledger, there since the purchase, is written in place; the boost record is a
                // new file, renamed into place.
                points == [
                    "boost.item-spending", "purchases:before-write", "purchases:after-write",
                    "boost.item-spent",
                    "boost:before-write", "boost:temporary-written", "boost:after-write",
                ])
            for point in points {
                try withTemporaryFolder { folder in
                    let helper = try StressHelper(folder: folder)
                    _ = try helper.run("buy", "1")
                    let crashed = try helper.run("use", Self.day, "--crash-at", point)
                    #expect(crashed.wasKilled, "\(point): \(crashed)")
                    let report = try helper.report()
                    let spent = report.items == 0
                    if spent {
                        #expect(report.usedEntries == 1 && report.usedEntriesWithGrant == 1, "\(point)")
                        #expect(report.boostSeconds > 86_000, "\(point): the item was spent, so its boost runs")
                        let left = try #require(report.newestGrantSecondsLeft)
                        #expect(abs(Double(report.boostSeconds) - left) < 2, "\(point): to its original end")
                    } else {
                        #expect(report.items == 1 && report.usedEntries == 0, "\(point)")
                        #expect(report.boostSeconds == 0, "\(point): no item spent, so no boost")
                    }
                    // Killed after the ledger was written, the item must be spent.
                    let ledgerWritten = !["boost.item-spending", "purchases:before-write", "purchases:temporary-written"]
                        .contains(point)
                    #expect(spent == ledgerWritten, "\(point)")
                    // And the store goes on: a second use is refused while the boost runs.
                    let again = try helper.run("use", Self.day)
                    #expect(again.status == (spent ? 3 : 0), "\(point): \(again.standardOutput)")
                    #expect(try helper.report().problems == [], "\(point)")
                }
            }
        }
    }

    /// Every point on the buy path: a receipt is credited exactly once by the next launch.
    @Test func aCrashAtAnyPointOfBuyingCreditsTheReceiptOnceAtTheNextLaunch() async throws {
        try await runOffThePool {
            let points = try withTemporaryFolder { folder in
                try StressHelper(folder: folder).points("buy", "3")
            }
            #expect(
                points == [
                    "receipts:before-write", "receipts:temporary-written", "receipts:after-write", "purchase.paid",
                    "purchases:before-write", "purchases:temporary-written", "purchases:after-write",
                    // The backend marks the receipt credited, in place.
                    "receipts:before-write", "receipts:after-write", "purchase.credited",
                ])
            for point in points {
                try withTemporaryFolder { folder in
                    let helper = try StressHelper(folder: folder)
                    let crashed = try helper.run("buy", "3", "--crash-at", point)
                    #expect(crashed.wasKilled, "\(point): \(crashed)")
                    let report = try helper.report()
                    #expect(report.creditedReceiptIDs == report.receiptIDs, "\(point): every receipt credited once")
                    #expect(report.items == 3 * report.receiptIDs.count, "\(point)")
                    let paid = !["receipts:before-write", "receipts:temporary-written"].contains(point)
                    #expect(report.receiptIDs.count == (paid ? 1 : 0), "\(point)")
                    #expect(report.problems == [], "\(point)")
                }
            }
        }
    }
}
