import SingletonStoresTestSupport
import Testing
import Timers
@testable import demo_cli

@Suite("ScaledClock", .timeLimit(.minutes(1)))
struct ScaledClockTests {
    @Test func timeRunsSpeedTimesFaster() async {
        let base = ManualClock()
        let clock = ScaledClock(speed: 20, base: base)
        let start = clock.now
        await base.advance(by: .milliseconds(50))
        #expect(start.duration(to: clock.now) == .seconds(1))
    }

    @Test func aSleepEndsAfterTheScaledShareOfBaseTime() async throws {
        let base = ManualClock()
        let clock = ScaledClock(speed: 4, base: base)
        let deadline = clock.now.advanced(by: .seconds(2))
        let sleeper = Task { try await clock.sleep(until: deadline) }
        await base.waitForSleepers(1)
        await base.advance(by: .milliseconds(499))
        #expect(base.sleeperCount == 1)
        await base.advance(by: .milliseconds(1))
        try await sleeper.value
        #expect(clock.now == deadline)
    }

    @Test(arguments: [0.0, -2, .nan, .infinity])
    func aSpeedThatIsNotAFinitePositiveNumberRunsAtTheBasePace(_ speed: Double) async {
        let base = ManualClock()
        let clock = ScaledClock(speed: speed, base: base)
        #expect(clock.speed == 1)
        let start = clock.now
        await base.advance(by: .seconds(3))
        #expect(start.duration(to: clock.now) == .seconds(3))
    }

    @Test func aPastDeadlineReturnsAtOnce() async throws {
        let clock = ScaledClock(speed: 10, base: ManualClock())
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    }
}
