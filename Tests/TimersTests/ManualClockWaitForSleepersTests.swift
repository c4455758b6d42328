import Testing
import Timers

@Suite struct ManualClockWaitForSleepersTests {
    @Test func returnsOnceTheTasksSleepThenAdvanceWakesThem() async throws {
        let clock = ManualClock()
        let first = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5))) }
        let second = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(7))) }
        try await clock.waitForSleepers(2)
        #expect(clock.sleeperCount == 2)
        await clock.advance(by: .seconds(7))
        try await first.value
        try await second.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func throwsWithBothCountsWhenNobodySleeps() async {
        let clock = ManualClock()
        let error = await #expect(throws: ManualClock.SleepersTimeout.self) {
            try await clock.waitForSleepers(1, timeout: .milliseconds(20))
        }
        #expect(error?.expected == 1)
        #expect(error?.found == 0)
        #expect(error?.description.hasPrefix("Expected 1 tasks sleeping on the manual clock, found 0") == true)
    }

    @Test func aCancelledWaitStops() async {
        let clock = ManualClock()
        let waiting = Task { try await clock.waitForSleepers(1) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
