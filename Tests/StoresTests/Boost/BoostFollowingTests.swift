import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStoresTesting
import Stores
import Testing
import Timers

/// A boost manager on a shared data folder with a clock of its own, as in a second process.
private final class FolderBoost: Sendable {
    let clock = ManualClock()
    let center = NotificationCenter()
    let recorder: ChangeRecorder
    let boost: BoostTimeManager

    init(folder: URL, wall: ManualWallClock, watching: StorageWatching = .automatic) {
        recorder = ChangeRecorder(center: center)
        boost = BoostTimeManager(
            clock: clock, wallClock: wall.wallClock, storage: FileStorage(folder: folder), center: center,
            watching: watching)
    }

    var ticks: [Int] { recorder.values(of: .boostTime) }
    var ends: [BoostEnd] { recorder.values(of: .boostEnded) }
}

@Suite("The boost follows other processes")
struct BoostFollowingTests {
    @Test(arguments: [StorageWatching.automatic, .polling(every: .milliseconds(10))])
    func startPauseResumeExtendAndStopElsewhereAreShownHere(watching: StorageWatching) async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let writer = FolderBoost(folder: folder, wall: wall, watching: .off)
            let watcher = FolderBoost(folder: folder, wall: wall, watching: watching)

            writer.boost.startCountDown(duration: 120)
            #expect(await waitUntil { watcher.boost.remainingSeconds == 120 })
            #expect(watcher.boost.endDate == writer.boost.endDate)
            #expect(watcher.boost.endDate == wall.now.addingTimeInterval(120))
            // Both count down to the same end: equal at every tick.
            for _ in 1...5 {
                wall.advance(by: .seconds(1))
                await writer.clock.advance(by: .seconds(1))
                await watcher.clock.advance(by: .seconds(1))
                #expect(watcher.boost.remainingSeconds == writer.boost.remainingSeconds)
            }
            #expect(watcher.ticks == writer.ticks)
            #expect(watcher.ticks == [120, 119, 118, 117, 116, 115])

            writer.boost.pause()
            #expect(await waitUntil { watcher.boost.isPaused })
            #expect(watcher.boost.remainingSeconds == 115)
            writer.boost.resume()
            #expect(await waitUntil { !watcher.boost.isPaused })
            writer.boost.extend(by: 60)
            #expect(await waitUntil { watcher.boost.remainingSeconds == 175 })
            #expect(watcher.boost.endDate == writer.boost.endDate)

            writer.boost.stopCountDown()
            #expect(await waitUntil { watcher.ends == [.stopped] })
            #expect(watcher.boost.remainingSeconds == 0)
            #expect(watcher.ticks.last == 0 || watcher.ticks.last == 175)

            writer.boost.startCountDown(duration: 30)
            #expect(await waitUntil { watcher.boost.remainingSeconds == 30 })
            #expect(watcher.ends == [.stopped], "one end per boost")
        }
    }

    @Test func aBoostRunningOutEndsOnceInEachProcess() async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let first = FolderBoost(folder: folder, wall: wall)
            let second = FolderBoost(folder: folder, wall: wall)
            first.boost.startCountDown(duration: 3)
            #expect(await waitUntil { second.boost.remainingSeconds == 3 })
            wall.advance(by: .seconds(3))
            await first.clock.advance(by: .seconds(3))
            await second.clock.advance(by: .seconds(3))
            #expect(await waitUntil { first.ends.count == 1 && second.ends.count == 1 })
            // The first to end clears the record; the other's news of that ends nothing twice.
            // A later boost is news that comes after it: once it is shown, all earlier news is in.
            first.boost.startCountDown(duration: 9)
            #expect(await waitUntil { second.boost.remainingSeconds == 9 })
            #expect(first.ends.count == 1 && second.ends.count == 1)
            first.boost.stopCountDown()
            #expect(await waitUntil { second.ends.count == 2 })
            #expect(!first.boost.isInBoostTime && !second.boost.isInBoostTime)
            #expect(first.ends == [.finished, .stopped])
        }
    }
}

@Suite("Purchases follow other processes")
struct PurchaseFollowingTests {
    @Test func itemsBoughtAndUsedElsewhereShowUpInTheCounts() async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let writerBoost = FolderBoost(folder: folder, wall: wall, watching: .off)
            let writer = PurchaseManager(
                storage: FileStorage(folder: folder), wallClock: wall.wallClock, boost: writerBoost.boost,
                center: writerBoost.center, watching: .off)
            let watcherBoost = FolderBoost(folder: folder, wall: wall)
            let watcher = PurchaseManager(
                storage: FileStorage(folder: folder), wallClock: wall.wallClock, boost: watcherBoost.boost,
                center: watcherBoost.center)
            _ = try await writer.buy(.boostItems(3))
            #expect(await waitUntil { watcher.ownedBoostItems == 3 })
            try writer.useBoostItem(duration: 60)
            #expect(await waitUntil { watcher.ownedBoostItems == 2 })
            // The boost the item started shows in the watcher's countdown too.
            #expect(await waitUntil { watcherBoost.boost.remainingSeconds == 60 })
        }
    }
}
