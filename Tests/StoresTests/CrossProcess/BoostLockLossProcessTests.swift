import Foundation
import SingletonStoresTestSupport
import Testing

/// The boost's lock file removed while a process holds it (the docs promise that a deleted lock
/// file loses no update): an item use spent its item and then said "The boost did not start, so
/// your item was not spent", while a second process spent its own item on the same boost.
/// Items spent must equal boosts started, and a run that says "not spent" spends nothing.
@Suite("Boost items when the boost's lock file is removed", .ownThread)
struct BoostLockLossProcessTests {
    /// A day-long boost, so it is still running when the later processes look.
    private static let day = "86400"

    /// Starts `use` paused at `point` (it stops itself there, holding the boost's lock; let it go
    /// with ``StartedChild/continueUntilExit(within:)``, as a single SIGCONT may come before the
    /// stop).
    private static func pausedUse(_ helper: StressHelper, at point: String) throws -> StartedChild {
        let paused = try helper.start("use", [day, "--pause-at", point])
        // Throws, killing the child, when the use never reaches `point`.
        _ = try paused.waitForLine { $0 == "paused at \(point)" }
        return paused
    }

    private static func removeBoostLock(in folder: URL) throws {
        try FileManager.default.removeItem(at: folder.appending(path: "boost.lock"))
    }

    @Test func aUseWhoseLockFileIsRemovedAfterItsItemIsSpentReportsTheBoostItStarted() async throws {
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let helper = try StressHelper(folder: folder)
                #expect(try helper.run("buy", "3").status == 0)
                let first = try Self.pausedUse(helper, at: "boost.item-spent")
                try Self.removeBoostLock(in: folder)
                let run = try first.continueUntilExit()
                #expect(run.status == 0 && run.lines.last == "started", "the item was spent on it: \(run)")
                let report = try helper.report()
                #expect(report.items == 2 && report.usedEntries == 1, "\(report.items) items, \(report.usedEntries) used")
                #expect(report.boostSeconds > 86_000)
                #expect(report.problems == [])
            }
        }
    }

    @Test func aSecondUseWhileTheFirstHasLostItsLockSpendsOneItemForOneBoost() async throws {
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let helper = try StressHelper(folder: folder)
                #expect(try helper.run("buy", "3").status == 0)
                // The first decided that no boost runs and is about to spend; its lock file goes.
                let first = try Self.pausedUse(helper, at: "boost.item-spending")
                try Self.removeBoostLock(in: folder)
                let second = try helper.run("use", Self.day)
                #expect(second.status == 0, "the second took the new lock file and started: \(second)")
                let run = try first.continueUntilExit()
                #expect(run.status == 3 && run.lines.last == "already running", "\(run)")
                let report = try helper.report()
                #expect(report.items == 2, "one item for one boost, not \(3 - report.items)")
                #expect(report.usedEntries == 1)
                #expect(report.boostSeconds > 86_000)
                #expect(report.problems == [])
            }
        }
    }
}
