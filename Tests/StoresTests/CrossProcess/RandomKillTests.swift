import SingletonStoresTestSupport
import Foundation
import Stores
import Testing

/// A process buying, using and renaming in a loop, killed with SIGKILL at a random moment, two
/// hundred times over one data folder: after each kill a fresh launch finds every ledger
/// invariant intact and no item lost.
@Suite("Random kills", .ownThread)
struct RandomKillTests {
    /// Two hundred kills; sixty under the thread sanitizer, whose pass looks for data races
    /// within a process (the plain pass runs all two hundred, and each launch there costs a
    /// tenth of a sanitized one).
    static let kills = isUnderThreadSanitizer ? 60 : 200

    @Test func twoHundredKilledChurnsLeaveTheLedgerWhole() async throws {
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let helper = try StressHelper(folder: folder)
                var delays = SeededDelays(seed: 0x5EED)
                for iteration in 0..<Self.kills {
                    let churn = try helper.start("churn", [String(iteration)])
                    // Once the first step is done (however slow the machine), a random moment: the
                    // invariants must hold at any of them.
                    try churn.waitForOutput()
                    usleep(delays.next())
                    churn.send(SIGKILL)
                    let failure = try churn.finish().standardError
                    #expect(failure.isEmpty, "iteration \(iteration): the churn failed before the kill: \(failure)")

                    let report = try helper.report()
                    #expect(report.problems == [], "iteration \(iteration): no document was damaged")
                    // The backend keeps its newest receipts and the ledger the ids of its newest
                    // credits (more of them): the backend's are exactly the newest credited.
                    let credited = report.creditedReceiptIDs
                    #expect(Set(credited).count == credited.count, "iteration \(iteration): no receipt credited twice")
                    #expect(
                        Set(credited.suffix(report.receiptIDs.count)) == Set(report.receiptIDs),
                        "iteration \(iteration): every receipt credited exactly once")
                    if report.receiptIDs.count < LocalPurchaseBackend.retainedReceiptCount {
                        #expect(credited.count == report.receiptIDs.count, "iteration \(iteration): nothing else credited")
                    }
                    #expect(
                        report.items == report.checkpointBalance + report.itemsBought - report.usedEntries,
                        "iteration \(iteration): items = bought − used")
                    #expect(
                        report.usedEntriesWithGrant == report.usedEntries,
                        "iteration \(iteration): every spent item carries its boost")
                    if let left = report.newestGrantSecondsLeft, left > 0.2 {
                        #expect(report.boostSeconds > 0, "iteration \(iteration): a spent item's boost runs to its end")
                    }
                    if report.problems.isEmpty == false { break }
                }
                // Every churn finished at least its first step before it was killed.
                let last = try helper.report()
                print(
                    "after \(Self.kills) kills: \(last.receiptIDs.count) receipts kept, \(last.usedEntries) items used since the checkpoint"
                )
                // Items were bought and used: the newest boost grant is kept even once the
                // entry that spent the item is folded into the checkpoint (faster writes fit
                // more purchases into the newest entries).
                #expect(last.receiptIDs.count >= 20 && last.newestGrantSecondsLeft != nil)
            }
        }
    }
}

/// Kill delays from 2 to 40 ms after the first step, from a fixed seed.
private struct SeededDelays {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt32 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return 2_000 + UInt32(truncatingIfNeeded: state >> 33) % 38_000
    }
}
