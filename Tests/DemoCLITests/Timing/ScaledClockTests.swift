import SingletonStoresTestSupport
import Testing
import Timers
@testable import demo_cli

@Suite("ScaledClock", .hangLimit)
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
        try await base.expectSleepers(1)
        await base.advance(by: .milliseconds(499))
        #expect(base.sleeperCount == 1)
        await base.advance(by: .milliseconds(1))
        try await sleeper.value
        #expect(clock.now == deadline)
    }

    @Test(arguments: [0.0, -2, -.infinity, .nan, .infinity])
    func aSpeedThatIsNotAFinitePositiveNumberRunsAtTheBasePace(_ speed: Double) async {
        let base = ManualClock()
        let clock = ScaledClock(speed: speed, base: base)
        #expect(clock.speed == 1)
        let start = clock.now
        await base.advance(by: .seconds(3))
        #expect(start.duration(to: clock.now) == .seconds(3))
    }

    @Test(arguments: [
        (1e-20, 0.001), (.leastNonzeroMagnitude, 0.001), (0.0009, 0.001), (0.001, 0.001),
        (1000, 1000), (1000.5, 1000), (1e300, 1000), (.greatestFiniteMagnitude, 1000),
    ])
    func aSpeedOutsideTheRangeIsClampedToIt(_ speed: Double, _ expected: Double) {
        #expect(ScaledClock(speed: speed, base: ManualClock()).speed == expected)
    }

    /// `--speed 1e-20` used to trap converting the scaled wait to a `Duration`.
    @Test func aTinySpeedSleepsAtTheSlowestPaceWithoutTrapping() async throws {
        let base = ManualClock()
        let clock = ScaledClock(speed: 1e-20, base: base)
        let deadline = clock.now.advanced(by: .seconds(1))
        let sleeper = Task { try await clock.sleep(until: deadline) }
        try await base.expectSleepers(1)
        await base.advance(by: .seconds(999))
        #expect(base.sleeperCount == 1)
        await base.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now == deadline)
    }

    @Test(arguments: [0.001, 1, 1000])
    func aDeadlineAtTheEndOfTimeSleepsInStepsWithoutTrapping(_ speed: Double) async throws {
        let base = ManualClock()
        let clock = ScaledClock(speed: speed, base: base)
        let deadline = clock.now.advanced(by: Duration(attoseconds: .max))
        let sleeper = Task { try await clock.sleep(until: deadline) }
        try await base.expectSleepers(1)
        // One step of base time later the clock is still short of its deadline: it sleeps again.
        await base.advance(by: ScaledClock<ManualClock>.longestBaseSleep)
        #expect(base.sleeperCount == 1)
        sleeper.cancel()
        #expect(await sleeper.result.isFailure)
    }

    @Test func scaledDurationsSaturateInsteadOfTrapping() {
        let greatest = Duration(attoseconds: .max)
        let least = Duration(attoseconds: .min)
        #expect(greatest.saturatingScaled(by: 1000) == greatest)
        #expect(greatest.saturatingScaled(by: -1000) == least)
        #expect(least.saturatingScaled(by: .infinity) == least)
        #expect(Duration.seconds(1).saturatingScaled(by: .nan) == .zero)
        #expect(Duration.seconds(1).saturatingScaled(by: 1e-30) == .zero)
        #expect(Duration.seconds(1).saturatingScaled(by: 1e30) == greatest)
        #expect(Duration.seconds(3).saturatingScaled(by: 20) == .seconds(60))
        #expect(Duration.seconds(1).saturatingScaled(by: 1 / 4) == .milliseconds(250))
        let clock = ScaledClock(speed: 1000, base: ManualClock(now: ManualClock.Instant(offset: greatest)))
        #expect(clock.minimumResolution == .zero)
        #expect(clock.now.offset == greatest)
    }

    @Test func aPastDeadlineReturnsAtOnce() async throws {
        let clock = ScaledClock(speed: 10, base: ManualClock())
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
