@testable import Automaton
import SingletonStoresTestSupport
import Testing
import Timers

/// The waits a test makes for effects end: an effect that never ends fails the wait within its
/// bound of real time, and the error names what was still running — never a hung test run.
@Suite("Effect waits end", .hangLimit)
struct EffectWaitTimeoutTests {
    /// An automaton whose `start` effects sleep for an hour on a manual clock nobody advances,
    /// one of them running (id "sync", queue "jobs" of one at a time) and one suspended behind it.
    private static func stuck() async throws -> (EffectAutomaton<Int, Job>, SendHandle<Int, Job>, ManualClock) {
        let clock = ManualClock()
        let jobs = EffectQueue("jobs", policy: .oldest(1, whenFull: .suspendNew))
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 3_600, clock: clock, log: Recorder(), id: EffectID(name), queue: jobs)
        }
        let first = await automaton.send(.start("sync"))
        await automaton.send(.start("upload"))
        try await clock.expectSleepers(1)
        return (automaton, first, clock)
    }

    @Test func waitingUntilIdleForAnEffectThatNeverEndsFailsWithinItsBound() async throws {
        let (automaton, _, _) = try await Self.stuck()
        let started = ContinuousClock.now
        let error = await #expect(throws: EffectWaitTimeout.self) {
            try await automaton.waitUntilIdle(timeout: .milliseconds(200))
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(200), "it waited its whole bound")
        #expect(waited < .seconds(60), "and ended after it: \(waited)")
        let effects = try #require(error?.effects)
        #expect(effects.map(\.id) == ["sync", "upload"], "oldest first")
        #expect(effects.map(\.queue) == ["jobs", "jobs"])
        #expect(effects.map(\.isSuspended) == [false, true])
        #expect(effects[0].serial < effects[1].serial)
        #expect(
            error?.description
                == "Effects still running after 0.2 seconds (real time): #\(effects[0].serial) (id \"sync\", queue "
                + "\"jobs\"), #\(effects[1].serial) (id \"upload\", suspended in queue \"jobs\"). An effect that never "
                + "ends waits for an input, a queue or a clock that nothing moves: cancel it, or advance the test's clock.",
            "\(String(describing: error))")
        #expect(await automaton.waiterCount == 0, "the waiter is gone")
        #expect(await automaton.runningEffectCount == 1, "the effects run on")
        await automaton.shutdown()
    }

    @Test func waitingForOneInputsEffectsFailsWithinItsBoundNamingThem() async throws {
        let (automaton, first, _) = try await Self.stuck()
        let error = await #expect(throws: EffectWaitTimeout.self) {
            try await first.wait(includingFollowUps: true, timeout: .milliseconds(100))
        }
        #expect(error?.effects.map(\.id) == ["sync"], "only this input's effect: \(String(describing: error))")
        #expect(error?.effects.first?.isSuspended == false)
        await #expect(throws: EffectWaitTimeout.self) {
            try await first.effects.wait(timeout: .milliseconds(100))
        }
        await automaton.shutdown()
    }

    @Test func aWaitThatEndsInTimeReturnsAsSoonAsTheEffectsEnd() async throws {
        let (automaton, first, clock) = try await Self.stuck()
        await clock.advance(by: .seconds(3_600))
        try await first.wait(timeout: .seconds(600))
        let started = ContinuousClock.now
        try await automaton.waitUntilIdle(timeout: .seconds(600))
        #expect(started.duration(to: .now) < .seconds(300))
        #expect(await automaton.runningEffectCount == 0)
    }
}
