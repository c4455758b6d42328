import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

@Suite(.timeLimit(.minutes(1))) struct EffectCancellationTests {
    @Test func cancellingByIDReachesSuspendedEffects() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("serial", policy: .oldest(1, whenFull: .suspendNew))
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 2, clock: clock, log: log, id: EffectID(name), queue: queue)
        }
        let replies = await automaton.replies()
        let first = await automaton.send(.start("a"))
        let second = await automaton.send(.start("b"))
        #expect(await automaton.suspendedEffectCount == 1)
        #expect(await automaton.cancel("b") == 1)
        #expect(await automaton.suspendedEffectCount == 0)
        await second.wait()
        await clock.waitForSleepers(1)
        await clock.advance(to: clock.at(2))
        await first.wait(includingFollowUps: true)
        await automaton.shutdown()
        #expect(await Array(replies).map(\.input) == [.start("a"), .start("b"), .finished("a")])
        #expect(log.values == ["start a @0", "end a"])
    }

    @Test func cancellingByIDStopsRunningEffectsAndFreesTheSlot() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let queue = EffectQueue("serial", policy: .oldest(1, whenFull: .suspendNew))
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 2, clock: clock, log: log, id: EffectID(name), queue: queue)
        }
        let first = await automaton.send(.start("a"))
        let second = await automaton.send(.start("b"))
        #expect(await automaton.cancel("a") == 1)
        await first.wait()
        #expect(await automaton.runningEffectCount == 1) // b took the slot
        #expect(await automaton.suspendedEffectCount == 0)
        await clock.advance(to: clock.at(2))
        await second.wait(includingFollowUps: true)
        #expect(log.values.contains("end b"))
        #expect(!log.values.contains("end a"))
    }

    @Test func cancellingAWrongIDTooEarlyOrTooLateIsANoOp() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 1, clock: clock, log: log, id: "x")
        }
        #expect(await automaton.cancel("x") == 0) // too early: nothing has that id yet
        let job = await automaton.send(.start("X"))
        #expect(await automaton.cancel("y") == 0) // wrong id
        #expect(await automaton.runningEffectCount == 1)
        await clock.waitForSleepers(1)
        await clock.advance(to: clock.at(1))
        await job.wait(includingFollowUps: true)
        #expect(await automaton.cancel("x") == 0) // too late: it has finished
        #expect(log.values == ["start X @0", "end X"])
        #expect(await automaton.state == 2)
    }

    @Test func cancelEffectReturnedByTheMapping() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { name in
            name == "stop" ? .cancel("work") : timedJob(name, until: 1, clock: clock, log: log, id: "work")
        }
        let work = await automaton.send(.start("W"))
        await automaton.send(.start("stop"))
        await work.wait()
        #expect(await automaton.runningEffectCount == 0)
        await clock.advance(to: clock.at(1))
        #expect(!log.values.contains("end W"))
        #expect(await automaton.state == 2)
    }

    @Test func handleCancelsTheEffectsItsInputStarted() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 1, clock: clock, log: log) }
        let a = await automaton.send(.start("A"))
        let b = await automaton.send(.start("B"))
        await a.cancel()
        #expect(await automaton.runningEffectCount == 1)
        await clock.advance(to: clock.at(1))
        await b.wait(includingFollowUps: true)
        #expect(!log.values.contains("end A"))
        #expect(log.values.contains("end B"))
    }

    @Test func waitingIncludingFollowUpsCoversTheWholeChain() async {
        let clock = ManualClock()
        let automaton = EffectAutomaton<Int, Int>(state: 0, clock: clock, mapping: EffectMapping { _, step in
            let effect = Effect<Int> { _ in
                if step < 3 { return step + 1 }
                try await clock.sleep(until: clock.at(1))
                return nil
            }
            return (step, effect)
        })
        let chain = await automaton.send(1)
        await chain.wait()
        // The first effect has ended; the chain goes on until step 3 sleeps on the clock. Step 2
        // sends step 3 before it ends itself, so for a moment both run: one or two, never none.
        await clock.waitForSleepers(1)
        #expect(await automaton.runningEffectCount >= 1)
        await clock.advance(to: clock.at(1))
        await chain.wait(includingFollowUps: true)
        #expect(await automaton.runningEffectCount == 0)
        #expect(await automaton.state == 3)
    }

    @Test func initialEffectRunsOnceAtStart() async {
        let clock = ManualClock()
        let runs = Counter()
        let boot = Effect<Job> { _ in
            runs.increment()
            return .finished("boot")
        }
        let automaton = makeJobAutomaton(clock: clock, initialEffect: boot) { _ in .none }
        let start = await automaton.start()
        await start.wait(includingFollowUps: true)
        await automaton.start().wait(includingFollowUps: true)
        await automaton.send(.refuse).wait()
        #expect(runs.value == 1)
        #expect(await automaton.state == 1)
    }

    @Test func firstSendStartsTheInitialEffect() async {
        let clock = ManualClock()
        let automaton = makeJobAutomaton(clock: clock, initialEffect: .send(.finished("boot"))) { _ in .none }
        let replies = await automaton.replies()
        await automaton.send(.start("x"))
        await automaton.waitUntilIdle()
        await automaton.shutdown()
        #expect(await Array(replies).map(\.input) == [.start("x"), .finished("boot")])
    }
}
