import SingletonStoresLocking
import SingletonStoresTestSupport
import Synchronization
import Testing
@testable import Timers

/// Countdowns on the standard library's real clocks, which (on Linux) tick on the process's
/// shared ticker thread rather than a task per sleep: each change at or after its instant, never
/// before; pausing, stopping and releasing silence it; a handler may change its timer from the
/// ticker's thread.
@Suite(.hangLimit)
struct CountdownTimerRealClockTests {
    /// An event and the clock's time when it was reported.
    struct Timed: Sendable {
        let event: CountdownTimer.Event
        let offset: Duration
    }

    @Test func ticksOnTheContinuousClockAtTheirInstantsNeverBefore() async {
        let clock = ContinuousClock()
        let start = clock.now
        let events = Recorder<Timed>()
        let timer = CountdownTimer(clock: clock) { events.append(Timed(event: $0, offset: start.duration(to: clock.now))) }

        timer.start(duration: .milliseconds(1_300))
        await timer.waitUntilEnded()

        #expect(events.values.map(\.event) == [.tick(2), .tick(1), .tick(0), .ended(.finished)])
        // tick(1) at 0.3 s, tick(0) at 1.3 s after the start (which came after `start`).
        let offsets = events.values.map(\.offset)
        // Never before; how soon after is the benchmarks' to measure (a loaded host may stall).
        #expect(offsets[1] >= .milliseconds(300))
        #expect(offsets[2] >= .milliseconds(1_300))
    }

    @Test func ticksOnTheSuspendingClockToo() async {
        let clock = SuspendingClock()
        let start = clock.now
        let events = Recorder<Timed>()
        let timer = CountdownTimer(clock: clock) { events.append(Timed(event: $0, offset: start.duration(to: clock.now))) }

        timer.start(duration: .milliseconds(200))
        await timer.waitUntilEnded()

        #expect(events.values.map(\.event) == [.tick(1), .tick(0), .ended(.finished)])
        #expect(events.values[1].offset >= .milliseconds(200))
    }

    @Test func twoTimersShareTheTickerEachAtItsOwnInstants() async {
        let clock = ContinuousClock()
        let long = Recorder<CountdownTimer.Event>()
        let short = Recorder<CountdownTimer.Event>()
        let first = CountdownTimer(clock: clock) { long.append($0) }
        let second = CountdownTimer(clock: clock) { short.append($0) }

        first.start(duration: .milliseconds(1_400))
        second.start(duration: .milliseconds(300))
        await second.waitUntilEnded()
        await first.waitUntilEnded()

        #expect(short.values == [.tick(1), .tick(0), .ended(.finished)])
        #expect(long.values == [.tick(2), .tick(1), .tick(0), .ended(.finished)])
    }

    @Test func aPausedOrStoppedCountdownTicksNoMore() async throws {
        let events = Recorder<CountdownTimer.Event>()
        let timer = CountdownTimer(clock: ContinuousClock()) { events.append($0) }

        timer.start(duration: .milliseconds(10_200))
        timer.pause()
        try await Task.sleep(for: .milliseconds(400))
        #expect(events.values == [.tick(11)])
        #expect(!timer.hasTask)

        timer.resume()
        #expect(timer.hasTask)
        timer.stop()
        try await Task.sleep(for: .milliseconds(400))
        // The clock is real: when this thread is held up between `resume` and `stop` (a loaded
        // machine), the tick due 0.2 s after `resume` may come before the stop. Nothing after it.
        let values = events.values
        #expect(values.first == .tick(11) && values.last == .ended(.stopped), "\(values)")
        #expect(values == [.tick(11), .ended(.stopped)] || values == [.tick(11), .tick(10), .ended(.stopped)], "\(values)")
        #expect(!timer.hasTask)
    }

    @Test func aHandlerMayStopItsTimerFromTheTickersThread() async throws {
        let holder = Mutex<CountdownTimer?>(nil)
        let events = Recorder<CountdownTimer.Event>()
        let timer = CountdownTimer(clock: ContinuousClock()) { event in
            events.append(event)
            if event == .tick(4) { holder.withLock { $0 }?.stop() }
        }
        holder.withLock { $0 = timer }

        timer.start(duration: .milliseconds(4_200))
        await timer.waitUntilEnded()
        // The end is delivered right after the handler returns, on the ticker's thread; the
        // waiter may be resumed just before.
        #expect(await waitUntil { events.values.count >= 3 })

        #expect(events.values == [.tick(5), .tick(4), .ended(.stopped)])
        holder.withLock { $0 = nil }
    }

    @Test func aReleasedTimerEndsItsCountdownSilently() async throws {
        let events = Recorder<CountdownTimer.Event>()
        var timer: CountdownTimer? = CountdownTimer(clock: ContinuousClock()) { events.append($0) }
        // The next tick is due 0.9 s after the start: far more than a loaded machine holds this
        // thread between two lines, and well inside the wait below.
        timer?.start(duration: .milliseconds(10_900))
        timer = nil

        try await Task.sleep(for: .milliseconds(1_500))
        #expect(timer == nil)
        #expect(events.values == [.tick(11)])
    }
}
