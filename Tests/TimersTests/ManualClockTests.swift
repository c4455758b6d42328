import SingletonStoresTestSupport
import Testing
@testable import Timers

@Suite(.hangLimit) struct ManualClockTests {
    @Test func wakesSleepersInDeadlineOrderAtTheirOwnInstants() async throws {
        let clock = ManualClock()
        let woken = Recorder<(label: String, at: ManualClock.Instant)>()
        var tasks: [Task<Void, any Error>] = []
        for (label, second) in [("c", 3), ("a", 1), ("b", 2)] {
            tasks.append(
                Task {
                    try await clock.sleep(until: .seconds(second))
                    woken.append((label, clock.now))
                })
        }
        try await clock.expectSleepers(3)

        await clock.advance(by: .seconds(5))

        let result = woken.values
        #expect(result.map(\.label) == ["a", "b", "c"])
        #expect(result.map(\.at) == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(clock.now == .seconds(5))
        for task in tasks { try? await task.value }
    }

    @Test func equalDeadlinesWakeFirstComeFirstServed() async throws {
        let clock = ManualClock()
        let woken = Recorder<Int>()
        var tasks: [Task<Void, any Error>] = []
        for label in 0..<5 {
            tasks.append(
                Task {
                    try await clock.sleep(until: .seconds(7))
                    woken.append(label)
                })
            try await clock.expectSleepers(label + 1)
        }

        await clock.advance(to: .seconds(7))

        #expect(woken.values == [0, 1, 2, 3, 4])
        for task in tasks { try? await task.value }
    }

    @Test func advanceStopsBeforeLaterDeadlines() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: .seconds(10)) }
        try await clock.expectSleepers(1)

        await clock.advance(by: .seconds(9))

        #expect(clock.sleeperCount == 1)
        #expect(clock.now == .seconds(9))
        await clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0)
        #expect((try? await task.value) != nil)
    }

    @Test func advancingToThePastIsANoOp() async throws {
        let clock = ManualClock()
        await clock.advance(to: .seconds(10))
        let task = Task { try await clock.sleep(until: .seconds(12)) }
        try await clock.expectSleepers(1)

        await clock.advance(to: .seconds(5))
        await clock.advance(by: .seconds(-3))

        #expect(clock.now == .seconds(10))
        #expect(clock.sleeperCount == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func sleepingUntilNowOrThePastReturnsAtOnce() async throws {
        let clock = ManualClock(now: .seconds(5))
        try await clock.sleep(until: .seconds(5))
        try await clock.sleep(until: .seconds(1))
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .seconds(5))
    }

    @Test func cancelledBeforeSleepingThrowsWithoutSleeping() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancelledWhileSleepingThrowsPromptlyWithoutAdvancing() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: .seconds(60)) }
        try await clock.expectSleepers(1)

        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .seconds(0))
    }

    @Test func oneAdvanceRunsEveryIterationOfAnHourLongLoopInOrder() async throws {
        let clock = ManualClock()
        let ticks = Recorder<ManualClock.Instant>()
        let loop = Task {
            var next = clock.now
            for _ in 0..<3_600 {
                next = next.advanced(by: .seconds(1))
                try await clock.sleep(until: next)
                ticks.append(clock.now)
            }
        }
        try await clock.expectSleepers(1)

        let elapsed = await ContinuousClock().measure {
            await clock.advance(by: .seconds(3_600))
        }

        let recorded = ticks.values
        #expect(recorded.count == 3_600)
        let inOrderAtExactInstants = recorded == (1...3_600).map { ManualClock.Instant.seconds($0) }
        #expect(inOrderAtExactInstants)
        try await loop.value
        // Reported, not asserted: a timing assertion belongs in a benchmark.
        print("ManualClock: 3,600 iterations in one advance took \(elapsed)")
    }

    @Test func runWakesEverySleeperUntilNoneIsLeft() async throws {
        let clock = ManualClock()
        let woken = Recorder<Int>()
        let task = Task {
            for second in [5, 10, 20] {
                try await clock.sleep(until: .seconds(second))
                woken.append(second)
            }
        }
        try await clock.expectSleepers(1)

        await clock.run()

        #expect(woken.values == [5, 10, 20])
        #expect(clock.now == .seconds(20))
        #expect(clock.sleeperCount == 0)
        #expect((try? await task.value) != nil)
    }

    @Test func instantArithmeticSaturatesInsteadOfTrapping() {
        let huge = Duration.seconds(Int64.max) * 15  // more than half of what a Duration holds
        let far = ManualClock.Instant(offset: huge)
        let farthest = far.advanced(by: huge)
        #expect(farthest > far)
        #expect(farthest.advanced(by: .seconds(1)) == farthest)
        let earliest = ManualClock.Instant(offset: .zero - huge).advanced(by: .zero - huge)
        #expect(earliest.advanced(by: .seconds(-1)) == earliest)
        #expect(earliest.duration(to: farthest) > .zero)
        #expect(farthest.duration(to: earliest) < .zero)
        #expect(ManualClock.Instant.seconds(3).duration(to: .seconds(1)) == .seconds(-2))
    }

    @Test func minimumResolutionIsZero() {
        #expect(ManualClock().minimumResolution == .zero)
    }
}
