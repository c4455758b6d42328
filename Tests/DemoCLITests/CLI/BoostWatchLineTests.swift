import Testing
@testable import demo_cli

/// What `boost watch` says, from the boost as it is when drawn.
@Suite("BoostWatchLine")
struct BoostWatchLineTests {
    @Test func followsAStopAndALaterStart() {
        var line = BoostWatchLine()
        #expect(line.next(after: nil, remainingSeconds: 0, isPaused: false) == "No boost is running.")
        #expect(line.next(after: .tick(120), remainingSeconds: 120, isPaused: false) == "Boost: 02:00")
        #expect(line.next(after: .pauseChanged, remainingSeconds: 119, isPaused: true) == "Boost: 01:59 (paused)")
        #expect(line.next(after: .ended, remainingSeconds: 0, isPaused: false) == "Boost: over.")
        #expect(line.next(after: .tick(90), remainingSeconds: 90, isPaused: false) == "Boost: 01:30")
    }

    @Test func aBoostThatRunsOutShowsItsLastSecondThenOver() {
        var line = BoostWatchLine()
        #expect(line.next(after: nil, remainingSeconds: 1, isPaused: false) == "Boost: 00:01")
        #expect(line.next(after: .tick(0), remainingSeconds: 0, isPaused: false) == "Boost: 00:00")
        #expect(line.next(after: .ended, remainingSeconds: 0, isPaused: false) == "Boost: over.")
    }

    @Test func aTickArrivingAfterAStopCannotBringTheOldCountdownBack() {
        var line = BoostWatchLine()
        _ = line.next(after: nil, remainingSeconds: 100, isPaused: false)
        #expect(line.next(after: .ended, remainingSeconds: 0, isPaused: false) == "Boost: over.")
        #expect(line.next(after: .tick(99), remainingSeconds: 0, isPaused: false) == "Boost: over.")
    }
}
