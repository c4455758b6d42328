import Foundation
import Testing
@testable import Timers

@Suite struct WallClockTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func endDateAndDurationConvertBothWays() {
        let wall = WallClock.fixed(start)
        let end = wall.date(after: .milliseconds(1_800_250))
        #expect(end == start.addingTimeInterval(1_800.25))
        #expect(wall.duration(until: end) == .milliseconds(1_800_250))
        #expect(wall.duration(until: start.addingTimeInterval(-5)) == .zero)
    }

    @Test func systemWallClockReadsTheSystemDate() {
        let before = Date()
        let read = WallClock.system.now()
        #expect(read >= before)
    }

    @Test func wallClockJumpsDoNotChangeARunningCountdown() async {
        let wall = ManualWallClock(now: start)
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(600))
        let endDate = wall.wallClock.date(after: probe.timer.remaining)  // what the app persists

        await probe.clock.advance(by: .seconds(100))
        wall.advance(by: .seconds(100))
        #expect(probe.timer.shownSeconds == 500)

        wall.advance(by: .seconds(3_600))  // the user moves the device time one hour forward
        await probe.clock.advance(by: .seconds(1))
        #expect(probe.timer.shownSeconds == 499)
        wall.advance(by: .seconds(-7_200))  // … and then one hour back from the real time
        await probe.clock.advance(by: .seconds(1))
        #expect(probe.timer.shownSeconds == 498)

        await probe.clock.advance(by: .seconds(498))
        #expect(probe.ticks == Array((0...600).reversed()))
        #expect(probe.events.values.last == ended(.finished, at: 600))
        #expect(endDate == start.addingTimeInterval(600))
    }

    @Test func aRestoredCountdownEndsAtThePersistedDate() async {
        let wall = ManualWallClock(now: start)
        let endDate = wall.wallClock.date(after: .seconds(1_800))

        // Relaunch 1,000.5 s later: a fresh monotonic clock, the same persisted end date.
        wall.advance(by: .milliseconds(1_000_500))
        let probe = TimerProbe()
        probe.timer.start(duration: wall.wallClock.duration(until: endDate))

        #expect(probe.timer.remaining == .milliseconds(799_500))
        #expect(probe.events.values == [tick(800, at: 0)])
        await probe.clock.advance(by: .milliseconds(799_500))
        #expect(probe.events.values.last == ended(.finished, at: 799.5))
    }
}
