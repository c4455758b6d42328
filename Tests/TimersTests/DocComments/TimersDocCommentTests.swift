// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of the Timers doc comments other than ManualClock's, verbatim between the
// markers inside functions that give them what they assume, so that they compile and run.
// QuickStartTests/DocCommentSnippetTests checks that they agree.
import Foundation
import Synchronization
import Testing
import Timers

func countdownExample() -> (Int, Int, String) {
// Doc "Timers/Countdown.swift" snippet 1: begin
let now = ContinuousClock.now
let boost = Countdown(deadline: now.advanced(by: .seconds(90)))

let shown = boost.shownSeconds(at: now)                 // 90
let atTheEnd = boost.shownSeconds(at: boost.deadline)   // 0, exactly at the deadline
let label = shown.formatted(.countdown)                 // "01:30"
// Doc "Timers/Countdown.swift" snippet 1: end
    return (shown, atTheEnd, label)
}

func countdownFormatExamples() -> ([String], String) {
// Doc "Timers/CountdownFormatStyle.swift" snippet 1: begin
let labels = [754, 59, 3_725].map { $0.formatted(.countdown) }  // ["12:34", "00:59", "1:02:05"]
// Doc "Timers/CountdownFormatStyle.swift" snippet 1: end
// Doc "Timers/CountdownFormatStyle.swift" snippet 2: begin
let label = 754.formatted(.countdown)  // "12:34"
// Doc "Timers/CountdownFormatStyle.swift" snippet 2: end
    return (labels, label)
}

func deadlineExample(timer: CountdownTimer) {
// Doc "Timers/CountdownTimer+Instant.swift" snippet 1: begin
if let deadline = timer.deadline {
    let left = timer.now.duration(to: deadline)  // the same as timer.remaining
    print(left)
}
// Doc "Timers/CountdownTimer+Instant.swift" snippet 1: end
}

func countdownTimerExample() -> CountdownTimer {
// Doc "Timers/CountdownTimer.swift" snippet 1: begin
let timer = CountdownTimer(clock: ContinuousClock()) { event in
    switch event {
    case .tick(let seconds): print(seconds.formatted(.countdown)) // "01:30", "01:29", …, "00:00"
    case .ended(let reason): print("boost over:", reason)          // .finished
    }
}
timer.start(duration: .seconds(90))
print(timer.shownSeconds)  // 90, from any thread, at any time
// Doc "Timers/CountdownTimer.swift" snippet 1: end
    return timer
}

func manualCountdownExample() async -> [CountdownTimer.Event] {
// Doc "Timers/CountdownTimer.swift" snippet 2: begin
let clock = ManualClock()
let events = Mutex<[CountdownTimer.Event]>([])
let timer = CountdownTimer(clock: clock) { event in events.withLock { $0.append(event) } }
timer.start(duration: .seconds(90))
await clock.advance(by: .seconds(90))  // events: tick(90), tick(89), …, tick(0), ended(.finished)
// Doc "Timers/CountdownTimer.swift" snippet 2: end
    return events.withLock { $0 }
}

func manualInstantExample() -> ManualClock.Instant {
// Doc "Timers/ManualClock+Instant.swift" snippet 1: begin
let start = ManualClock.Instant(offset: .seconds(10))
let later = start.advanced(by: .seconds(5))  // ManualClock.Instant(offset: .seconds(15))
// Doc "Timers/ManualClock+Instant.swift" snippet 1: end
    return later
}

func offsetInstantExample() -> ManualClock.Instant {
// Doc "Timers/OffsetInstant.swift" snippet 1: begin
let start = ManualClock.Instant(offset: .seconds(10))
let later = start.advanced(by: .seconds(5))  // ManualClock.Instant(offset: .seconds(15))
// Doc "Timers/OffsetInstant.swift" snippet 1: end
    return later
}

func manualWallClockExample() -> Duration {
// Doc "Timers/ManualWallClock.swift" snippet 1: begin
let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
let endDate = wall.wallClock.date(after: .seconds(600))
wall.advance(by: .seconds(3_600))                           // the user moves the device time forward
let left = wall.wallClock.duration(until: endDate)          // .zero: a restore now finds the boost over
// Doc "Timers/ManualWallClock.swift" snippet 1: end
    return left
}

func wallClockExample(timer: CountdownTimer, relaunchedTimer: CountdownTimer) {
// Doc "Timers/WallClock.swift" snippet 1: begin
let wallClock = WallClock.system
// Starting:
timer.start(duration: .seconds(1_800))
let endDate = wallClock.date(after: timer.remaining)  // persist this
// After relaunch:
relaunchedTimer.start(duration: wallClock.duration(until: endDate))
// Doc "Timers/WallClock.swift" snippet 1: end
}

func manualWallClockFromTheClockExample() async -> Date {
// Doc "Timers/ManualClock+WallClock.swift" snippet 1: begin
let clock = ManualClock()
let wall = clock.wallClock(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
await clock.advance(by: .seconds(90))
let later = wall.now()  // 90 s after the start date
// Doc "Timers/ManualClock+WallClock.swift" snippet 1: end
    return later
}

@Suite struct TimersDocCommentTests {
    @Test func theWallClockOfAManualClockMovesWithIt() async {
        #expect(await manualWallClockFromTheClockExample() == Date(timeIntervalSince1970: 1_700_000_090))
    }

    @Test func theCountdownExamplesShowWhatTheyPromise() {
        let (shown, atTheEnd, label) = countdownExample()
        #expect(shown == 90 && atTheEnd == 0 && label == "01:30")
        let (labels, single) = countdownFormatExamples()
        #expect(labels == ["12:34", "00:59", "1:02:05"] && single == "12:34")
        #expect(manualInstantExample() == ManualClock.Instant(offset: .seconds(15)))
        #expect(offsetInstantExample() == ManualClock.Instant(offset: .seconds(15)))
        #expect(manualWallClockExample() == .zero)
    }

    @Test func theTimerExamplesRun() async {
        let timer = countdownTimerExample()
        #expect(timer.shownSeconds == 90)
        deadlineExample(timer: timer)
        timer.stop()
        let events = await manualCountdownExample()
        #expect(events.count == 92 && events.first == .tick(90) && events.last == .ended(.finished))
    }

    @Test func theWallClockExampleCarriesTheTimeLeftOverARelaunch() {
        let clock = ManualClock()
        let timer = CountdownTimer(clock: clock)
        let relaunched = CountdownTimer(clock: clock)
        wallClockExample(timer: timer, relaunchedTimer: relaunched)
        #expect((1_799...1_800).contains(relaunched.shownSeconds))
        timer.stop()
        relaunched.stop()
    }
}
