// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "Countdowns that agree" (Sources/Timers/Timers.docc), verbatim
// between the markers, so that it always compiles. Snippets that use names the article leaves
// to the reader (`clock`, `show`, `timer`) sit in functions that take them as parameters; the
// suite at the end runs those on a manual clock, and the article's own tests run as they are.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import Foundation
import SingletonStoresTestSupport
import Stores

func countdownArticleDeadline() -> ContinuousClock.Instant? {
    // Article "CountdownsThatAgree" snippet 1: begin
let clock = ContinuousClock()
let boost = Countdown(deadline: clock.now.advanced(by: .seconds(754)))
print(boost.shownSeconds(at: clock.now).formatted(.countdown))  // "12:34"
print(boost.shownSeconds(at: boost.deadline))  // 0, exactly at the deadline
let next = boost.nextChange(after: clock.now)  // the instant "12:34" becomes "12:33"
    // Article "CountdownsThatAgree" snippet 1: end
    return next
}

func countdownArticleTimer(clock: some Clock<Duration>, show: @escaping @Sendable (String) -> Void) -> CountdownTimer {
    // Article "CountdownsThatAgree" snippet 2: begin
let timer = CountdownTimer(clock: clock) { event in
    switch event {
    case .tick(let seconds): show(seconds.formatted(.countdown))  // "01:30", "01:29", …, "00:00"
    case .ended(let reason): show("over: \(reason)")  // finished, or stopped
    }
}
timer.start(duration: .seconds(90))
    // Article "CountdownsThatAgree" snippet 2: end
    return timer
}

// Article "CountdownsThatAgree" snippet 3: begin
import Synchronization
import Testing
import Timers

@Test func ninetySecondsOfTicksTakeNoTime() async {
    let clock = ManualClock()
    let shown = Mutex<[Int]>([])
    let timer = CountdownTimer(clock: clock) { event in
        if case .tick(let seconds) = event { shown.withLock { $0.append(seconds) } }
    }
    timer.start(duration: .seconds(90))
    await clock.advance(by: .seconds(90))
    #expect(shown.withLock { $0 } == Array((0...90).reversed()))
}
// Article "CountdownsThatAgree" snippet 3: end

func countdownArticleRelaunch(timer: CountdownTimer) -> Date {
    // Article "CountdownsThatAgree" snippet 4: begin
let wallClock = WallClock.system
timer.start(duration: .seconds(1_800))
let endDate = wallClock.date(after: timer.remaining)  // persist it with the countdown

// After a relaunch:
timer.start(duration: wallClock.duration(until: endDate))  // what is left, or zero if it is over
    // Article "CountdownsThatAgree" snippet 4: end
    return endDate
}

// Article "CountdownsThatAgree" snippet 5: begin
@Test func aRelaunchMeasuresTheTimeAwayOnTheWallClock() {
    let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
    let endDate = wall.wallClock.date(after: .seconds(600))
    wall.advance(by: .seconds(120))  // the app was away for two minutes
    #expect(wall.wallClock.duration(until: endDate) == .seconds(480))
    wall.set(to: Date(timeIntervalSince1970: 1_800_000_000))  // the date moved years ahead
    #expect(wall.wallClock.duration(until: endDate) == .zero)
}
// Article "CountdownsThatAgree" snippet 5: end

// Article "CountdownsThatAgree" snippet 6: begin
@Test func theBoostResumesAfterARelaunch() {
    let storage = InMemoryStorage()
    let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
    let first = BoostTimeManager(clock: ManualClock(), wallClock: wall.wallClock, storage: storage, center: NotificationCenter())
    first.startCountDown(duration: 15 * 60)

    wall.advance(by: .seconds(5 * 60))  // the app is gone for five minutes
    let relaunched = BoostTimeManager(clock: ManualClock(), wallClock: wall.wallClock, storage: storage, center: NotificationCenter())
    #expect(relaunched.remainingSeconds == 10 * 60)
    #expect(relaunched.endDate == first.endDate)
}
// Article "CountdownsThatAgree" snippet 6: end

// Article "CountdownsThatAgree" snippet 7: begin
@Test func aPremiumBoostOfYourOwn() async throws {
    let clock = ManualClock()
    let premium = CountdownStore(
        key: "premium", clock: clock, wallClock: clock.wallClock(startingAt: Date(timeIntervalSince1970: 1_700_000_000)),
        storage: InMemoryStorage(), center: NotificationCenter())
    try premium.start(duration: .seconds(30 * 60))
    await clock.advance(by: .seconds(90))  // one clock moves both time lines
    #expect(premium.remainingSeconds == 28 * 60 + 30)
}
// Article "CountdownsThatAgree" snippet 7: end

@Suite struct CountdownsThatAgreeArticleTests {
    @Test func theShownValueChangesNext() {
        #expect(countdownArticleDeadline() != nil)
    }

    @Test func theTimerShowsEveryValueThenItsEnd() async {
        let clock = ManualClock()
        let shown = Recorder<String>()
        let timer = countdownArticleTimer(clock: clock) { shown.append($0) }
        #expect(timer.shownSeconds == 90)
        await clock.advance(by: .seconds(90))
        #expect(shown.values.first == "01:30")
        #expect(shown.values.suffix(2) == ["00:00", "over: finished"])
        #expect(shown.count == 92)
    }

    @Test func aRelaunchRestartsFromTheEndDate() {
        let timer = CountdownTimer(clock: ManualClock())
        let endDate = countdownArticleRelaunch(timer: timer)
        #expect(timer.shownSeconds == 1_800)
        #expect(abs(endDate.timeIntervalSinceNow - 1_800) < 60)
    }
}
