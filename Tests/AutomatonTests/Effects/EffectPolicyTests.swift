import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

@Suite(.hangLimit) struct EffectPolicyTests {
    @Test func eachEffectRunsExactlyOncePerAcceptedInput() async {
        let clock = ManualClock()
        let runs = Counter()
        let automaton = makeJobAutomaton(clock: clock) { name in
            Effect { _ in
                runs.increment()
                return .finished(name)
            }
        }
        var handles: [SendHandle<Int, Job>] = []
        for input in [Job.start("a"), .refuse, .start("b"), .refuse, .start("c")] {
            handles.append(await automaton.send(input))
        }
        for handle in handles { await handle.wait(includingFollowUps: true) }
        #expect(runs.value == 3)
        #expect(handles.map(\.reply.isSuccess) == [true, false, true, false, true])
        #expect(await automaton.state == 6)  // three starts, three finished
    }

    @Test func failedTransitionDoesNotCancelARunningEffect() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 1, clock: clock, log: log) }
        let job = await automaton.send(.start("A"))
        let refused = await automaton.send(.refuse)
        #expect(refused.reply == .failure(input: .refuse, from: 1))
        #expect(await automaton.runningEffectCount == 1)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await job.wait(includingFollowUps: true)
        #expect(log.values == ["start A @0", "end A"])
        #expect(await automaton.state == 2)
    }

    @Test func newestOneCancelsTheOlderEffect() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("latest", policy: .newest(1))
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 5, clock: clock, log: log, queue: queue) }
        let replies = await automaton.replies()
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        await first.wait()
        #expect(await automaton.runningEffectCount == 1)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(5))
        await second.wait(includingFollowUps: true)
        await automaton.shutdown()
        let inputs = await Array(replies).map(\.input)
        #expect(inputs == [.start("A"), .start("B"), .finished("B")])
        #expect(!log.values.contains("end A"))
        #expect(log.values.contains("end B"))
    }

    @Test func newestTwoKeepsTwo() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("two", policy: .newest(2))
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 1, clock: clock, log: log, queue: queue) }
        let handles = [
            await automaton.send(.start("A")), await automaton.send(.start("B")), await automaton.send(.start("C")),
        ]
        #expect(await automaton.runningEffectCount == 2)
        try await clock.expectSleepers(2)
        await clock.advance(to: clock.at(1))
        for handle in handles { await handle.wait(includingFollowUps: true) }
        #expect(!log.values.contains("end A"))
        #expect(log.values.filter { $0.hasPrefix("end") }.sorted() == ["end B", "end C"])
    }

    @Test func oldestOneDiscardDropsTheNewEffect() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("first", policy: .oldest(1, whenFull: .discardNew))
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 1, clock: clock, log: log, queue: queue) }
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        #expect(second.reply.isSuccess)  // the transition happens; only its effect is dropped
        await second.wait()  // nothing to wait for
        #expect(await automaton.runningEffectCount == 1)
        #expect(await automaton.suspendedEffectCount == 0)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await first.wait(includingFollowUps: true)
        #expect(log.values == ["start A @0", "end A"])
        #expect(await automaton.state == 3)
    }

    @Test func oldestOneSuspendRunsThemOneAfterAnother() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("serial", policy: .oldest(1, whenFull: .suspendNew))
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: name == "A" ? 1 : 2, clock: clock, log: log, queue: queue)
        }
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        #expect(await automaton.runningEffectCount == 1)
        #expect(await automaton.suspendedEffectCount == 1)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await first.wait(includingFollowUps: true)
        #expect(await automaton.runningEffectCount == 1)
        #expect(await automaton.suspendedEffectCount == 0)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(2))
        await second.wait(includingFollowUps: true)
        #expect(log.values == ["start A @0", "end A", "start B @1", "end B"])
    }

    @Test func delaysSpaceTheStartsAsConfigured() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("spaced", delay: .seconds(2))
        let automaton = makeJobAutomaton(clock: clock) { name in
            Effect(queue: queue) { _ in
                log.append("start \(name) @\(clock.now.offset.components.seconds)")
                return nil
            }
        }
        let a = await automaton.send(.start("A"))
        let b = await automaton.send(.start("B"))
        let c = await automaton.send(.start("C"))
        await a.wait()
        #expect(log.values == ["start A @0"])
        await clock.advance(to: clock.at(2))
        await b.wait()
        #expect(log.values == ["start A @0", "start B @2"])
        #expect(await automaton.runningEffectCount == 1)  // C still waits for its slot in time
        await clock.advance(to: clock.at(4))
        await c.wait()
        #expect(log.values == ["start A @0", "start B @2", "start C @4"])
    }

    @Test func delayAppliesToSuspendedEffectsWhenTheyStart() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("serial-spaced", policy: .oldest(1, whenFull: .suspendNew), delay: .seconds(3))
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 1, clock: clock, log: log, queue: queue)
        }
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await first.wait()
        // B was released at 1 s but may not start before 0 s + 3 s.
        await clock.advance(to: clock.at(3))
        await second.wait()
        #expect(log.values == ["start A @0", "end A", "start B @3", "end B"])
    }
}
