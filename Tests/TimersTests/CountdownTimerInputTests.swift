import Foundation
import Testing
@testable import Timers

@Suite struct CountdownTimerInputTests {
    @Test(arguments: [Duration.zero, .seconds(-5), .nanoseconds(-1), Duration(attoseconds: .min)])
    func zeroAndNegativeDurationsEndAtOnce(duration: Duration) async {
        let probe = TimerProbe()

        probe.timer.start(duration: duration)

        #expect(probe.events.values == [tick(0, at: 0), ended(.finished, at: 0)])
        #expect(!probe.timer.isRunning)
        #expect(!probe.timer.hasTask)
        #expect(probe.timer.tasksStarted == 0)
    }

    @Test func aZeroStartReplacesARunningCountdownWithoutReportingItsEnd() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(30))
        await probe.clock.advance(by: .seconds(1))

        probe.timer.start(duration: .zero)
        await probe.clock.advance(by: .seconds(60))

        #expect(
            probe.events.values == [
                tick(30, at: 0), tick(29, at: 1), tick(0, at: 1), ended(.finished, at: 1),
            ])
        #expect(probe.clock.sleeperCount == 0)
    }

    @Test(arguments: [
        Duration.seconds(Int64.max), Duration(attoseconds: .max), CountdownTimer.maximumDuration * 2,
    ])
    func hugeDurationsAreClampedToTheMaximum(duration: Duration) async {
        let probe = TimerProbe()

        probe.timer.start(duration: duration)

        let maximumSeconds = 100 * 365 * 24 * 60 * 60
        #expect(probe.timer.remaining == CountdownTimer.maximumDuration)
        #expect(probe.events.values == [tick(maximumSeconds, at: 0)])
        await probe.clock.advance(by: .seconds(1))
        #expect(probe.timer.shownSeconds == maximumSeconds - 1)
        #expect(probe.events.values.last == tick(maximumSeconds - 1, at: 1))
        probe.timer.stop()
    }

    @Test func extendingBeyondTheMaximumClampsAndExtremeShortensEnd() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(10))

        probe.timer.extend(by: Duration(attoseconds: .max))
        #expect(probe.timer.remaining == CountdownTimer.maximumDuration)
        probe.timer.shorten(by: Duration(attoseconds: .min))  // shortening by a negative extends
        #expect(probe.timer.remaining == CountdownTimer.maximumDuration)
        probe.timer.extend(by: Duration(attoseconds: .min))

        #expect(probe.events.values.suffix(2) == [tick(0, at: 0), ended(.finished, at: 0)])
        #expect(probe.endCount == 1)
    }

    @Test func pausedCountdownsClampAndEndLikeRunningOnes() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(10))
        probe.timer.pause()

        probe.timer.extend(by: .seconds(5))
        #expect(probe.timer.remaining == .seconds(15))
        #expect(probe.events.values.last == tick(15, at: 0))
        probe.timer.shorten(by: .seconds(20))

        #expect(probe.events.values.suffix(2) == [tick(0, at: 0), ended(.finished, at: 0)])
        #expect(!probe.timer.isPaused)
    }

    @Test func operationsOnAnIdleTimerDoNothing() async {
        let probe = TimerProbe()
        probe.timer.extend(by: .seconds(5))
        probe.timer.shorten(by: .seconds(5))
        probe.timer.pause()
        probe.timer.resume()
        probe.timer.stop()
        #expect(probe.events.values.isEmpty)
        #expect(probe.timer.remaining == .zero)
        #expect(probe.timer.deadline == nil)
        #expect(probe.timer.tasksStarted == 0)
    }

    @Test func restoringFromUnmeasurableEndDatesNeverTraps() {
        let wall = WallClock.fixed(Date(timeIntervalSinceReferenceDate: 0))
        #expect(wall.duration(until: Date(timeIntervalSinceReferenceDate: .infinity)) == CountdownTimer.maximumDuration)
        #expect(wall.duration(until: Date(timeIntervalSinceReferenceDate: -.infinity)) == .zero)
        #expect(wall.duration(until: Date(timeIntervalSinceReferenceDate: .nan)) == .zero)
        #expect(
            wall.duration(until: Date(timeIntervalSinceReferenceDate: .greatestFiniteMagnitude)) == CountdownTimer.maximumDuration
        )
        #expect(wall.duration(until: Date(timeIntervalSinceReferenceDate: -.greatestFiniteMagnitude)) == .zero)
        #expect(wall.date(after: Duration(attoseconds: .max)).timeIntervalSinceReferenceDate > 1e20)
        #expect(wall.date(after: Duration(attoseconds: .min)).timeIntervalSinceReferenceDate < -1e20)
    }
}
