import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

@Suite(.hangLimit) struct EffectCancellationTests {
    @Test func cancellingByIDReachesSuspendedEffects() async throws {
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
        try await clock.expectSleepers(1)
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
        #expect(await automaton.runningEffectCount == 1)  // b took the slot
        #expect(await automaton.suspendedEffectCount == 0)
        await clock.advance(to: clock.at(2))
        await second.wait(includingFollowUps: true)
        #expect(log.values.contains("end b"))
        #expect(!log.values.contains("end a"))
    }

    @Test func cancellingAWrongIDTooEarlyOrTooLateIsANoOp() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 1, clock: clock, log: log, id: "x")
        }
        #expect(await automaton.cancel("x") == 0)  // too early: nothing has that id yet
        let job = await automaton.send(.start("X"))
        #expect(await automaton.cancel("y") == 0)  // wrong id
        #expect(await automaton.runningEffectCount == 1)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await job.wait(includingFollowUps: true)
        #expect(await automaton.cancel("x") == 0)  // too late: it has finished
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

    @Test func cancelAllStopsEveryEffectWithOrWithoutAnIDAndTheNextOneRuns() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let serial = EffectQueue("serial", policy: .oldest(1, whenFull: .suspendNew))
        let automaton = makeJobAutomaton(clock: clock) { name in
            switch name {
            case "A": timedJob(name, until: 5, clock: clock, log: log, id: "a", queue: serial)  // runs
            case "B": timedJob(name, until: 5, clock: clock, log: log, queue: serial)  // waits for A
            case "C": timedJob(name, until: 5, clock: clock, log: log, id: "c")  // runs
            default: timedJob(name, until: 7, clock: clock, log: log, queue: serial)
            }
        }
        let replies = await automaton.replies()
        var handles: [SendHandle<Int, Job>] = []
        for name in ["A", "B", "C", "D"] { handles.append(await automaton.send(.start(name))) }
        try await clock.expectSleepers(2)
        #expect(await automaton.runningEffectCount == 2)
        #expect(await automaton.suspendedEffectCount == 2)

        #expect(await automaton.cancelAll() == 4)
        #expect(await automaton.runningEffectCount == 0)
        #expect(await automaton.suspendedEffectCount == 0)
        for handle in handles { await handle.wait(includingFollowUps: true) }
        try await clock.expectSleepers(0)
        await clock.advance(to: clock.at(5))
        #expect(await automaton.cancelAll() == 0)

        // The automaton goes on: the queue is free, the next effect starts at once.
        let next = await automaton.send(.start("E"))
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(7))
        await next.wait(includingFollowUps: true)
        await automaton.shutdown()
        #expect(log.values.filter { $0.hasPrefix("start") }.sorted() == ["start A @0", "start C @0", "start E @5"])
        #expect(log.values.filter { $0.hasPrefix("end") } == ["end E"])
        #expect(
            await Array(replies).map(\.input) == [
                .start("A"), .start("B"), .start("C"), .start("D"), .start("E"), .finished("E"),
            ])
    }

    @Test func cancelAllKeepsASpacedQueueSpacedFromItsLastRealStart() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let spaced = EffectQueue("spaced", delay: .seconds(2))
        let automaton = makeJobAutomaton(clock: clock) { name in
            Effect(queue: spaced) { _ in
                log.append("start \(name) @\(clock.now.offset.components.seconds)")
                return nil
            }
        }
        await automaton.send(.start("A")).wait()
        await automaton.send(.start("B"))  // would start at 2 s
        await automaton.send(.start("C"))  // would start at 4 s
        #expect(await automaton.cancelAll() == 2)
        await clock.advance(to: clock.at(1))
        let next = await automaton.send(.start("D"))
        #expect(await automaton.runningEffectCount == 1)  // waiting for its turn: 2 s after A
        await clock.advance(to: clock.at(2))
        await next.wait()
        #expect(log.values == ["start A @0", "start D @2"])
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

    @Test func waitingIncludingFollowUpsCoversTheWholeChain() async throws {
        let clock = ManualClock()
        let automaton = EffectAutomaton<Int, Int>(
            state: 0, clock: clock,
            mapping: EffectMapping { _, step in
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
        try await clock.expectSleepers(1)
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

    @Test func firstSendStartsTheInitialEffect() async throws {
        let clock = ManualClock()
        let automaton = makeJobAutomaton(clock: clock, initialEffect: .send(.finished("boot"))) { _ in .none }
        let replies = await automaton.replies()
        await automaton.send(.start("x"))
        try await automaton.waitUntilIdle()
        await automaton.shutdown()
        #expect(await Array(replies).map(\.input) == [.start("x"), .finished("boot")])
    }
}
