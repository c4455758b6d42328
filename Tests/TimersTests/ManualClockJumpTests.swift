import SingletonStoresTestSupport
import Testing
@testable import Timers

/// `ManualClock.jump(by:)`: far ahead in one step, each overdue sleeper woken once at the new
/// time — unlike `advance(by:)`, which stops at every deadline on the way.
@Suite(.hangLimit)
struct ManualClockJumpTests {
    @Test func everyOverdueSleeperWakesOnceAtTheNewTime() async throws {
        let clock = ManualClock()
        let seen = Recorder<String>()
        let early = Task {
            try await clock.sleep(until: .seconds(5))
            seen.append("early@\(clock.now)")
        }
        let late = Task {
            try await clock.sleep(until: .seconds(10))
            seen.append("late@\(clock.now)")
        }
        let future = Task { try await clock.sleep(until: .seconds(30)) }
        try await clock.expectSleepers(3)

        await clock.jump(by: .seconds(20))

        try await early.value
        try await late.value
        #expect(Set(seen.values) == ["early@20.0 seconds", "late@20.0 seconds"])
        #expect(clock.now == .seconds(20))
        #expect(clock.sleeperCount == 1, "a sleeper due later keeps sleeping")
        future.cancel()
    }

    @Test func advanceStopsAtEachDeadlineWhereJumpDoesNot() async throws {
        let clock = ManualClock()
        let seen = Recorder<ManualClock.Instant>()
        let sleeper = Task {
            try await clock.sleep(until: .seconds(5))
            seen.append(clock.now)
        }
        try await clock.expectSleepers(1)
        await clock.advance(by: .seconds(20))
        try await sleeper.value
        #expect(seen.values == [.seconds(5)])
    }

    @Test func aLoopOverEverySecondWakesOnceAndCatchesUpWithoutSleeping() async throws {
        let clock = ManualClock()
        let wakes = Recorder<ManualClock.Instant>()
        let loop = Task {
            var next = clock.now
            for _ in 0..<10 {
                next = next.advanced(by: .seconds(1))
                try await clock.sleep(until: next)
                wakes.append(clock.now)
            }
        }
        try await clock.expectSleepers(1)

        await clock.jump(by: .seconds(4))

        // Woken at 4 s for its 1 s deadline; the deadlines 2, 3 and 4 s are not in the future,
        // so it runs through them without sleeping, then sleeps until 5 s.
        #expect(wakes.values == Array(repeating: .seconds(4), count: 4))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(6))
        try await loop.value
        #expect(wakes.values.suffix(6) == (5...10).map { ManualClock.Instant.seconds($0) })
    }

    @Test func jumpingBackwardsOrByZeroChangesNothing() async {
        let clock = ManualClock(now: .seconds(10))
        await clock.jump(by: .seconds(-5))
        #expect(clock.now == .seconds(10))
        await clock.jump(to: .seconds(3))
        #expect(clock.now == .seconds(10))
        await clock.jump(by: .zero)
        #expect(clock.now == .seconds(10))
    }

    @Test func jumpingToTheEndOfTimeSaturates() async {
        let clock = ManualClock()
        await clock.jump(by: Duration(attoseconds: .max))
        await clock.jump(by: .seconds(1))
        #expect(clock.now == ManualClock.Instant(offset: Duration(attoseconds: .max)))
    }
}
