import SingletonStoresTestSupport
@testable import Automaton
import Testing
import Timers

/// Waiting for effects ends when the waiting task is cancelled — so a test's time limit, or a
/// screen that goes away, can stop a wait on an effect that never ends.
@Suite(.hangLimit) struct EffectWaitCancellationTests {
    /// The ways to wait for effects.
    enum Wait: CaseIterable, CustomTestStringConvertible {
        case sendHandle, sendHandleWithFollowUps, effectHandle, effectHandleWithFollowUps, untilIdle

        var testDescription: String { "\(self)" }

        func perform(_ handle: SendHandle<Int, Job>, on automaton: EffectAutomaton<Int, Job>) async {
            switch self {
            case .sendHandle: await handle.wait()
            case .sendHandleWithFollowUps: await handle.wait(includingFollowUps: true)
            case .effectHandle: await handle.effects.wait()
            case .effectHandleWithFollowUps: await handle.effects.wait(includingFollowUps: true)
            case .untilIdle: try? await automaton.waitUntilIdle()
            }
        }
    }

    /// An automaton whose `start` effects sleep until an hour on the manual clock, which the
    /// tests never advance.
    static func endlessJobs(clock: ManualClock) -> EffectAutomaton<Int, Job> {
        makeJobAutomaton(clock: clock) { timedJob($0, until: 3_600, clock: clock, log: Recorder()) }
    }

    @Test(arguments: Wait.allCases)
    func aCancelledWaiterReturnsWithin100msAndTheEffectRunsOn(_ wait: Wait) async throws {
        // The one real-clock measurement. On a machine loaded far beyond its cores, the waiter's
        // thread itself may wait that long to be scheduled: of up to three tries, the fastest
        // counts (a wait that ends late by design is late every time).
        var fastest = Duration.seconds(3_600)
        for _ in 0..<3 where fastest >= .milliseconds(100) {
            fastest = min(fastest, try await Self.cancellationLatency(of: wait))
        }
        #expect(fastest < .milliseconds(100))
    }

    /// How long a waiter takes to return once cancelled, while the effect it waits for runs on;
    /// checks that the effect does run on.
    static func cancellationLatency(of wait: Wait) async throws -> Duration {
        let clock = ManualClock()
        let automaton = Self.endlessJobs(clock: clock)
        let job = await automaton.send(.start("A"))
        try await clock.expectSleepers(1)
        // The waiter and the automaton's actor code it calls run on a thread of their own, so
        // the measurement does not include waiting for a free thread of the shared pool, which
        // the tests running in parallel may keep busy.
        let executor = DedicatedThreadExecutor()
        defer { executor.stop() }
        let waiter = Task(executorPreference: executor) {
            await wait.perform(job, on: automaton)
            return ContinuousClock.now
        }
        try await automaton.waitForWaiters(1)

        let cancelledAt = ContinuousClock.now
        waiter.cancel()
        let returnedAt = await waiter.value

        #expect(await automaton.waiterCount == 0)
        #expect(await automaton.runningEffectCount == 1)
        await automaton.shutdown()
        return cancelledAt.duration(to: returnedAt)
    }

    @Test(arguments: Wait.allCases)
    func aWaitInAnAlreadyCancelledTaskReturnsAtOnce(_ wait: Wait) async {
        let clock = ManualClock()
        let automaton = Self.endlessJobs(clock: clock)
        let job = await automaton.send(.start("A"))
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await wait.perform(job, on: automaton)
        }
        await waiter.value
        #expect(await automaton.waiterCount == 0)
        #expect(await automaton.runningEffectCount == 1)
        await automaton.shutdown()
    }

    @Test func cancellingOneWaiterLeavesTheOthersWaiting() async throws {
        let clock = ManualClock()
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 1, clock: clock, log: Recorder()) }
        let job = await automaton.send(.start("A"))
        try await clock.expectSleepers(1)
        let cancelled = Task { await job.wait() }
        let patient = Task {
            await job.wait()
            return await automaton.runningEffectCount
        }
        try await automaton.waitForWaiters(2)
        cancelled.cancel()
        await cancelled.value
        try await automaton.waitForWaiters(1)
        await clock.advance(to: clock.at(1))
        #expect(await patient.value == 0)  // it returned when the effect ended, not before
    }
}

extension EffectAutomaton {
    /// Waits until `count` waits are registered; records an issue and throws, which ends the
    /// test, if that does not happen within the helpers' real-time bound.
    func waitForWaiters(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        if await waitUntil({ waiterCount == count }) { return }
        Issue.record("expected \(count) waiters, found \(waiterCount)", sourceLocation: sourceLocation)
        throw WaitersTimeout()
    }
}

/// ``EffectAutomaton/waitForWaiters(_:sourceLocation:)`` gave up (the issue it recorded says why).
struct WaitersTimeout: Error {}
