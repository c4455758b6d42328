import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import Observation
import SingletonStores
import StoreObservation
import Stores
import Testing
import Timers

/// `CountdownStore`: a persisted, observable, cross-process countdown of your own — "a
/// 30-minute premium boost" in one line.
@Suite("CountdownStore", .ownThread)
struct CountdownStoreTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aCountdownOfYourOwnTicksEndsOnceAndSurvivesARelaunch() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualClock()
            let wall = clock.wallClock(startingAt: Self.start)
            let center = NotificationCenter()
            let premium = CountdownStore(
                key: "premium", clock: clock, wallClock: wall, storage: FileStorage(folder: folder), center: center,
                watching: .off)
            let ticks = Recorder<Int>()
            let ends = Recorder<BoostEnd>()
            let tickToken = premium.ticks.observe(center: center) { ticks.append($0) }
            let endToken = premium.ends.observe(center: center) { ends.append($0) }
            defer {
                tickToken.cancel()
                endToken.cancel()
            }
            try premium.start(duration: .seconds(30 * 60))
            #expect(premium.remainingSeconds == 1_800)
            #expect(premium.ticks.name.rawValue == "SingletonStores.CountdownStore.premium.time")
            await clock.advance(by: .seconds(60))
            #expect(premium.remainingSeconds == 1_740)
            #expect(ticks.values.last == 1_740)
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "premium.json").path(percentEncoded: false)))

            let relaunched = CountdownStore(
                key: "premium", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            #expect(relaunched.remainingSeconds == 1_740, "the end is on disk")
            await clock.advance(by: .seconds(1_740))
            #expect(!premium.isRunning)
            #expect(ends.values == [.finished])
        }
    }

    @Test func twoCountdownsInOneFolderAreIndependentAndTheBoostIsOneOfThem() throws {
        try withTemporaryFolder { folder in
            let clock = ManualClock()
            let storage = FileStorage(folder: folder)
            let premium = CountdownStore(
                key: "premium", clock: clock, storage: storage, center: NotificationCenter(), watching: .off)
            let boost = BoostTimeManager(clock: clock, storage: storage, center: NotificationCenter(), watching: .off)
            try premium.start(duration: .seconds(600))
            boost.startCountDown(duration: 60)
            #expect(premium.remainingSeconds == 600)
            #expect(boost.remainingSeconds == 60)
            #expect(boost.countdown.key == "boost")
            try premium.stop()
            #expect(!premium.isRunning)
            #expect(boost.isInBoostTime)
        }
    }

    @Test func aScreenReadingItIsToldOfTheNextSecond() async throws {
        let clock = ManualClock()
        let countdown = CountdownStore(
            key: "likes-refill", clock: clock, storage: InMemoryStorage(), center: NotificationCenter())
        try countdown.start(duration: .seconds(10))
        let told = Locked(0)
        withObservationTracking {
            _ = countdown.remainingSeconds
        } onChange: {
            told.withLock { $0 += 1 }
        }
        await clock.advance(by: .seconds(1))
        #expect(told.withLock { $0 } == 1)
    }

    @Test func itFollowsWhatAnotherInstanceStarts() async throws {
        try await withTemporaryFolder { folder in
            let wall = WallClock.fixed(Self.start)
            let here = CountdownStore(
                key: "premium", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .automatic)
            let elsewhere = CountdownStore(
                key: "premium", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            try elsewhere.start(duration: .seconds(300))
            #expect(await waitUntil { here.remainingSeconds == 300 })
            #expect(here.endDate == elsewhere.endDate)
        }
    }
}
