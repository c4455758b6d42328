import SingletonStoresTestSupport
import SingletonStoresLocking
import Testing
@testable import Timers

@Suite struct CountdownTimerTests {
    @Test func ninetySecondCountdownReportsNinetyChangesEachAtItsExactInstant() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        #expect(probe.events.values == [tick(90, at: 0)])

        await probe.clock.advance(by: .seconds(90))

        let expected =
            [tick(90, at: 0)]
            + (0...89).reversed().map { tick($0, at: Double(90 - $0)) }
            + [ended(.finished, at: 90)]
        let events = probe.events.values
        #expect(events.count == 92)
        #expect(events == expected)
        #expect(probe.ticks.dropFirst().count == 90)
    }

    @Test func advancingAnHourInOneCallDeliversEveryChangeInOrder() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(3_600))

        let elapsed = await ContinuousClock().measure {
            await probe.clock.advance(by: .seconds(3_600))
        }

        let expected =
            [tick(3_600, at: 0)]
            + (0...3_599).reversed().map { tick($0, at: Double(3_600 - $0)) }
            + [ended(.finished, at: 3_600)]
        let matches = probe.events.values == expected
        #expect(matches)
        #expect(probe.ticks.count == 3_601)
        print("CountdownTimer: one advance of an hour delivered 3,600 changes in \(elapsed)")
    }

    @Test func readsDeriveFromTheDeadlineBetweenTicks() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        await probe.clock.advance(by: .milliseconds(999))
        #expect(probe.timer.remaining == .milliseconds(89_001))
        #expect(probe.timer.shownSeconds == 90)
        #expect(probe.timer.deadline == CountdownTimer.Instant(offset: .seconds(90)))
        #expect(probe.timer.isRunning)
        #expect(!probe.timer.isPaused)
        await probe.clock.advance(by: .milliseconds(1))
        #expect(probe.timer.shownSeconds == 89)
        #expect(probe.events.values.last == tick(89, at: 1))
    }

    @Test func startingAgainReplacesTheRunningCountdown() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        await probe.clock.advance(by: .milliseconds(10_500))
        #expect(probe.timer.shownSeconds == 80)

        probe.timer.start(duration: .seconds(30))
        await probe.clock.advance(by: .zero)
        #expect(probe.clock.sleeperCount == 1)
        #expect(probe.events.values.last == tick(30, at: 10.5))
        let eventsBeforeRestart = probe.events.count

        await probe.clock.advance(by: .seconds(100))

        let afterRestart = Array(probe.events.values.dropFirst(eventsBeforeRestart))
        let expected =
            (0...29).reversed().map { tick($0, at: 10.5 + Double(30 - $0)) }
            + [ended(.finished, at: 40.5)]
        #expect(afterRestart == expected)
        #expect(probe.endCount == 1)
        #expect(probe.timer.tasksStarted == 2)
        #expect(probe.clock.sleeperCount == 0)
    }

    @Test func extendMovesTheDeadlineLater() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(10))
        await probe.clock.advance(by: .seconds(4))
        #expect(probe.timer.shownSeconds == 6)

        probe.timer.extend(by: .seconds(5))

        #expect(probe.events.values.last == tick(11, at: 4))
        #expect(probe.timer.deadline == CountdownTimer.Instant(offset: .seconds(15)))
        await probe.clock.advance(by: .seconds(20))
        let tail = Array(probe.events.values.suffix(12))
        #expect(tail == (0...10).reversed().map { tick($0, at: Double(15 - $0)) } + [ended(.finished, at: 15)])
        #expect(probe.endCount == 1)
    }

    @Test func shortenMovesTheDeadlineEarlier() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(60))
        await probe.clock.advance(by: .seconds(10))

        probe.timer.shorten(by: .seconds(20))

        #expect(probe.events.values.last == tick(30, at: 10))
        #expect(probe.timer.remaining == .seconds(30))
        await probe.clock.advance(by: .seconds(100))
        #expect(probe.events.values.suffix(2) == [tick(0, at: 40), ended(.finished, at: 40)])
        #expect(probe.endCount == 1)
    }

    @Test func shorteningPastNowEndsTheCountdownAtOnce() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(60))
        await probe.clock.advance(by: .seconds(10))

        probe.timer.shorten(by: .seconds(100))

        #expect(probe.events.values.suffix(2) == [tick(0, at: 10), ended(.finished, at: 10)])
        #expect(!probe.timer.isRunning)
        #expect(!probe.timer.hasTask)
        await probe.clock.advance(by: .seconds(100))
        #expect(probe.endCount == 1)
        #expect(probe.clock.sleeperCount == 0)
    }

    @Test func pauseFreezesTheCountdownAndResumeSetsANewDeadline() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(10))
        await probe.clock.advance(by: .milliseconds(3_500))

        probe.timer.pause()
        let eventsAtPause = probe.events.count
        await probe.clock.advance(by: .seconds(100))

        #expect(probe.timer.isPaused)
        #expect(!probe.timer.isRunning)
        #expect(probe.timer.deadline == nil)
        #expect(probe.timer.remaining == .milliseconds(6_500))
        #expect(probe.timer.shownSeconds == 7)
        #expect(probe.events.count == eventsAtPause)
        #expect(probe.clock.sleeperCount == 0)

        probe.timer.resume()

        #expect(probe.timer.deadline == CountdownTimer.Instant(offset: .milliseconds(110_000)))
        #expect(probe.events.count == eventsAtPause)
        await probe.clock.advance(by: .seconds(10))
        let afterResume = Array(probe.events.values.dropFirst(eventsAtPause))
        let expected = (0...6).reversed().map { tick($0, at: 110 - Double($0)) } + [ended(.finished, at: 110)]
        #expect(afterResume == expected)
    }

    @Test func stopReportsEndedOnceAndSilencesTheCountdown() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        await probe.clock.advance(by: .seconds(5))

        probe.timer.stop()
        probe.timer.stop()
        await probe.clock.advance(by: .seconds(100))

        #expect(probe.events.values.suffix(2) == [tick(85, at: 5), ended(.stopped, at: 5)])
        #expect(probe.endCount == 1)
        #expect(probe.timer.remaining == .zero)
        #expect(!probe.timer.isRunning)
        #expect(!probe.timer.hasTask)
    }

    @Test func stoppingAPausedCountdownEndsIt() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        probe.timer.pause()

        probe.timer.stop()

        #expect(probe.events.values == [tick(90, at: 0), ended(.stopped, at: 0)])
        #expect(!probe.timer.isPaused)
    }

    @Test func endFiresExactlyOnceWhenObservedThroughTheHandler() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(3))

        await probe.clock.advance(by: .seconds(10))
        probe.timer.stop()
        probe.timer.extend(by: .seconds(5))
        probe.timer.shorten(by: .seconds(5))
        probe.timer.pause()
        probe.timer.resume()
        await probe.clock.advance(by: .seconds(10))

        #expect(probe.endCount == 1)
        #expect(probe.events.values.last == ended(.finished, at: 3))
    }

    @Test func endFiresExactlyOnceWithoutAnyObserver() async {
        let clock = ManualClock()
        let timer = CountdownTimer(clock: clock)
        timer.start(duration: .seconds(3))
        let waiter = Task { await timer.waitUntilEnded() }

        await clock.advance(by: .seconds(3))
        await waiter.value

        #expect(!timer.isRunning)
        #expect(!timer.hasTask)
        #expect(timer.shownSeconds == 0)
        #expect(clock.sleeperCount == 0)
        #expect(timer.tasksStarted == 1)
    }

    @Test func waitUntilEndedReturnsAtOnceWhenIdleAndAfterStop() async {
        let clock = ManualClock()
        let timer = CountdownTimer(clock: clock)
        await timer.waitUntilEnded()
        timer.start(duration: .seconds(60))
        let waiter = Task { await timer.waitUntilEnded() }
        timer.stop()
        await waiter.value
        #expect(!timer.isRunning)
    }

    @Test func afterReportingZeroTheTimerTaskEnds() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(2))
        await probe.clock.advance(by: .seconds(1))
        #expect(probe.timer.hasTask)
        #expect(probe.clock.sleeperCount == 1)

        await probe.clock.advance(by: .seconds(1))

        #expect(probe.events.values.suffix(2) == [tick(0, at: 2), ended(.finished, at: 2)])
        #expect(!probe.timer.hasTask)
        #expect(!probe.timer.isRunning)
        #expect(probe.clock.sleeperCount == 0)
    }

    @Test func aThousandConcurrentReadersAddNoSecondTimerTask() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(3_600))
        await probe.clock.advance(by: .milliseconds(1_234_500))
        let timer = probe.timer

        let readings = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { timer.isRunning ? timer.shownSeconds : -1 }
            }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }

        #expect(readings == [2_366])
        #expect(probe.clock.sleeperCount == 1)
        #expect(probe.timer.tasksStarted == 1)
    }

    @Test func changesMadeInsideTheHandlerArriveAfterIt() async {
        let clock = ManualClock()
        let events = Recorder<CountdownTimer.Event>()
        let holder = Locked<CountdownTimer?>(nil)
        let timer = CountdownTimer(clock: clock) { event in
            events.append(event)
            if event == .tick(87) {
                holder.withLock { $0 }?.stop()
            }
        }
        holder.withLock { $0 = timer }
        timer.start(duration: .seconds(90))

        await clock.advance(by: .seconds(10))

        #expect(events.values == [.tick(90), .tick(89), .tick(88), .tick(87), .ended(.stopped)])
        holder.withLock { $0 = nil }
    }

    @Test func waitUntilEndedReturnsWhenTheWaitingTaskIsCancelled() async {
        let clock = ManualClock()
        let timer = CountdownTimer(clock: clock)
        timer.start(duration: .seconds(60))
        let waiter = Task { await timer.waitUntilEnded() }

        waiter.cancel()
        await waiter.value

        #expect(timer.isRunning)
        timer.stop()
    }

    @Test func runsOnTheContinuousClockToo() {
        let events = Recorder<CountdownTimer.Event>()
        let timer = CountdownTimer(clock: ContinuousClock()) { events.append($0) }

        timer.start(duration: .seconds(60))
        let shown = timer.shownSeconds
        timer.stop()

        #expect((59...60).contains(shown))
        #expect(events.values == [.tick(60), .ended(.stopped)])
        #expect(timer.tasksStarted == 1)
    }
}

/// A countdown on a clock that jumps far ahead, as after a device sleep: it computes from its
/// deadline, so it ends once, without a tick per missed second.
@Suite(.hangLimit)
struct CountdownTimerJumpTests {
    static let maximumSeconds = Int(CountdownTimer.maximumDuration.components.seconds)

    @Test func aHundredYearCountdownJumpedToItsEndFinishesAtOnce() async {
        let probe = TimerProbe()
        probe.timer.start(duration: CountdownTimer.maximumDuration)

        let elapsed = await ContinuousClock().measure {
            await probe.clock.jump(by: CountdownTimer.maximumDuration)
        }

        let end = ManualClock.Instant(offset: CountdownTimer.maximumDuration)
        #expect(
            probe.events.values == [
                Stamped(event: .tick(Self.maximumSeconds), at: .seconds(0)),
                Stamped(event: .tick(0), at: end),
                Stamped(event: .ended(.finished), at: end),
            ])
        #expect(probe.endCount == 1)
        #expect(probe.ticks.last == 0)
        #expect(probe.timer.tasksStarted == 1)
        #expect(!probe.timer.isRunning)
        #expect(probe.clock.sleeperCount == 0)
        // Reported, not asserted: one wake, not three billion ticks.
        print("CountdownTimer: a jump over 100 years took \(elapsed)")
    }

    @Test func aJumpPastTheEndEndsOnceAtTheJumpedTime() async {
        let probe = TimerProbe()
        probe.timer.start(duration: .seconds(90))
        await probe.clock.jump(by: .seconds(1_000))
        #expect(probe.events.values == [tick(90, at: 0), tick(0, at: 1_000), ended(.finished, at: 1_000)])
    }

    @Test func aJumpPartWayShowsTheTimeLeftThenTicksOnFromTheDeadline() async {
        let probe = TimerProbe()
        probe.timer.start(duration: CountdownTimer.maximumDuration)
        let halfway = Duration.seconds(Self.maximumSeconds / 2) + .milliseconds(500)

        await probe.clock.jump(by: halfway)

        let shown = Self.maximumSeconds - Self.maximumSeconds / 2  // 0.5 s left over: rounded up
        #expect(probe.ticks == [Self.maximumSeconds, shown])
        #expect(probe.timer.shownSeconds == shown)
        #expect(probe.clock.sleeperCount == 1, "asleep until the next change, not looping")

        await probe.clock.advance(by: .seconds(2))
        #expect(probe.ticks.suffix(2) == [shown - 1, shown - 2])
        #expect(probe.events.values.last?.at == ManualClock.Instant(offset: halfway + .milliseconds(1_500)))
        probe.timer.stop()
    }
}
