import SingletonStoresTestSupport
import Foundation
import SingletonStores
import StoreObservation
import Stores
import Testing
import Timers

/// From outside: a released `BoostTimeManager` with a running boost kept posting ticks until its
/// boost would have ended; 20,000 of them held 95 MB and burned CPU while the app was idle.
@Suite("A released store stops its countdown", .hangLimit)
struct ReleasedBoostTests {
    @Test func aReleasedManagerStopsCountingPostsNothingAndIsFreed() async throws {
        let clock = ManualClock()
        let center = NotificationCenter()
        let ticks = Recorder<Int>()
        let token = NotificationChannel.boostTime.observe(center: center) { ticks.append($0) }
        weak var released: BoostTimeManager?
        do {
            let boost = BoostTimeManager(
                clock: clock, wallClock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)), storage: InMemoryStorage(),
                center: center, watching: .off, reportIssue: { _ in })
            released = boost
            boost.startCountDown(duration: 86_400)
            try await clock.expectSleepers(1)
            await clock.advance(by: .seconds(1))
            try await clock.expectSleepers(1)
        }
        #expect(released == nil, "nothing keeps a released manager alive")
        // Its countdown task's sleep was cancelled: the clock has no sleeper left.
        #expect(await waitUntil { clock.sleeperCount == 0 }, "the released countdown still sleeps on the clock")
        let before = ticks.values.count
        await clock.advance(by: .seconds(10))
        #expect(ticks.values.count == before, "a released manager posted ticks: \(ticks.values.suffix(3))")
        token.cancel()
    }

    @Test func aReleasedTimerEndsSilently() async throws {
        let clock = ManualClock()
        let events = Recorder<CountdownTimer.Event>()
        weak var released: CountdownTimer?
        do {
            let timer = CountdownTimer(clock: clock) { events.append($0) }
            released = timer
            timer.start(duration: .seconds(60))
            try await clock.expectSleepers(1)
        }
        #expect(released == nil)
        #expect(await waitUntil { clock.sleeperCount == 0 })
        await clock.advance(by: .seconds(120))
        #expect(events.values == [.tick(60)], "only what was reported before the release")
    }

    @Test func manyReleasedManagersLeaveNoTaskBehind() async throws {
        let clock = ManualClock()
        for _ in 0..<500 {
            let boost = BoostTimeManager(
                clock: clock, wallClock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)), storage: InMemoryStorage(),
                center: NotificationCenter(), watching: .off, reportIssue: { _ in })
            boost.startCountDown(duration: 86_400)
        }
        #expect(await waitUntil { clock.sleeperCount == 0 }, "\(clock.sleeperCount) countdowns still sleep")
    }
}
