import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

@Suite(.hangLimit) struct EffectLifetimeTests {
    /// An effect that sleeps until 10 s, and when cancelled still tries to send its input,
    /// reporting whether the automaton took it.
    static func stubbornJob(clock: ManualClock, signals: AsyncStream<String>.Continuation) -> Effect<Job> {
        .run { context in
            do {
                try await clock.sleep(until: clock.at(10))
            } catch {
                signals.yield("cancelled")
            }
            let delivered = await context.send(.finished("late"))
            signals.yield("delivered \(delivered)")
        }
    }

    @Test func shutdownCancelsInFlightEffectsDropsTheirInputsAndEndsReplies() async throws {
        let clock = ManualClock()
        let (signals, signal) = AsyncStream.makeStream(of: String.self)
        let automaton = makeJobAutomaton(clock: clock) { _ in Self.stubbornJob(clock: clock, signals: signal) }
        let replies = await automaton.replies()
        let job = await automaton.send(.start("A"))
        try await clock.expectSleepers(1)
        await automaton.shutdown()
        #expect(await Array(replies).map(\.input) == [.start("A")])  // the stream has ended
        await job.wait(includingFollowUps: true)
        #expect(await signals.prefix(count: 2) == ["cancelled", "delivered false"])
        await clock.advance(to: clock.at(20))
        #expect(await automaton.state == 1)
        #expect(await automaton.runningEffectCount == 0)
        #expect(await automaton.isShutDown)
        #expect(await automaton.send(.start("B")).reply == .failure(input: .start("B"), from: 1))
        #expect(await Array(automaton.replies()).isEmpty)
    }

    @Test func deinitCancelsInFlightEffectsAndEndsReplies() async throws {
        let clock = ManualClock()
        let (signals, signal) = AsyncStream.makeStream(of: String.self)
        let replies = try await Self.startAndDrop(clock: clock, signal: signal)
        #expect(await Array(replies).map(\.input) == [.start("A")])
        #expect(await signals.prefix(count: 2) == ["cancelled", "delivered false"])
    }

    /// Starts a stubborn job on an automaton that nobody keeps.
    static func startAndDrop(
        clock: ManualClock,
        signal: AsyncStream<String>.Continuation
    ) async throws -> AsyncStream<TransitionReply<Int, Job>> {
        let automaton = makeJobAutomaton(clock: clock) { _ in stubbornJob(clock: clock, signals: signal) }
        let replies = await automaton.replies()
        await automaton.send(.start("A"))
        try await clock.expectSleepers(1)
        return replies
    }

    @Test func waitersAreReleasedByShutdown() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { timedJob($0, until: 100, clock: clock, log: log) }
        let job = await automaton.send(.start("A"))
        async let waited: Void = job.wait(includingFollowUps: true)
        try await clock.expectSleepers(1)
        await automaton.shutdown()
        await waited
        #expect(await automaton.runningEffectCount == 0)
        #expect(!log.values.contains("end A"))
    }
}
