import SingletonStoresTestSupport
import SingletonStoresLocking
import Testing
@testable import Timers

/// Seed 004's per-screen countdown: each screen decrements its own counter on its own one-second
/// sleeps. Test-only, to reproduce the bug that `CountdownTimer` removes.
private final class NaiveScreenTimer: Sendable {
    private let counter: Locked<Int>

    init(seconds: Int) {
        counter = Locked(seconds)
    }

    var label: String {
        counter.withLock { $0 }.formatted(.countdown)
    }

    func run(on clock: ManualClock) async {
        var next = clock.now
        while counter.withLock({ $0 }) > 0 {
            next = next.advanced(by: .seconds(1))
            do { try await clock.sleep(until: next) } catch { return }
            counter.withLock { $0 -= 1 }
        }
    }
}

/// A screen that, like the seed's view controllers, caches a label and redraws it on each event.
private final class Screen: Sendable {
    private let text = Locked("")

    var label: String {
        text.withLock { $0 }
    }

    func redraw(_ seconds: Int) {
        text.withLock { $0 = seconds.formatted(.countdown) }
    }
}

@Suite(.hangLimit) struct SeedDriftTests {
    @Test func perScreenTimersDisagreeWhenThePopupOpensLater() async throws {
        let clock = ManualClock()
        let main = NaiveScreenTimer(seconds: 754)
        let mainTask = Task { await main.run(on: clock) }
        try await clock.expectSleepers(1)
        await clock.advance(by: .milliseconds(400))
        let popup = NaiveScreenTimer(seconds: 754)  // opened 400 ms later, starts from the same value
        let popupTask = Task { await popup.run(on: clock) }
        try await clock.expectSleepers(2)

        await clock.advance(to: ManualClock.Instant(offset: .milliseconds(1_200)))

        #expect(main.label == "12:33")
        #expect(popup.label == "12:34")  // the QA report: 12:33 on one screen, 12:34 on the other
        mainTask.cancel()
        popupTask.cancel()
    }

    @Test func screensReadingOneCountdownTimerAlwaysAgree() async {
        let clock = ManualClock()
        let main = Screen()
        let popup = Screen()
        let popupIsOpen = Locked(false)
        let timer = CountdownTimer(clock: clock) { event in
            guard case .tick(let seconds) = event else { return }
            main.redraw(seconds)
            if popupIsOpen.withLock({ $0 }) { popup.redraw(seconds) }
        }
        timer.start(duration: .seconds(754))
        await clock.advance(by: .milliseconds(400))
        popup.redraw(timer.shownSeconds)  // the popup opens and reads the current value
        popupIsOpen.withLock { $0 = true }

        var disagreements = 0
        for _ in 0..<100 {  // sample every 100 ms for 10 s
            await clock.advance(by: .milliseconds(100))
            if main.label != popup.label || main.label != timer.shownSeconds.formatted(.countdown) {
                disagreements += 1
            }
        }

        #expect(disagreements == 0)
        #expect(main.label == "12:24")
        timer.stop()
    }
}
