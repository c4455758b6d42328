import SingletonStoresTestSupport
import Testing
import Timers

/// The test support's wait for sleepers: a wait that gives up ends the test that waited.
@Suite(.hangLimit)
struct ExpectSleepersTests {
    @Test func aWaitThatGivesUpThrowsSoTheTestGoesNoFurther() async {
        let clock = ManualClock()
        let error = await #expect(throws: ManualClock.SleepersTimeout.self) {
            try await clock.expectSleepers(1, within: .milliseconds(20))
        }
        #expect(error?.found == 0)
    }

    /// What hung CI: a task that sleeps only after the wait gave up (its thread came late). The
    /// test must end at the failed wait, not advance the clock and then await the task forever.
    @Test func aTestWhoseSleeperComesTooLateEndsAtTheFailedWait() async throws {
        let clock = ManualClock()
        let gate = AsyncStream<Void>.makeStream()
        let sleeper = Task {
            for await _ in gate.stream { break }  // held back, as by a starved cooperative pool
            try await clock.sleep(until: clock.now.advanced(by: .seconds(5)))
        }
        defer { sleeper.cancel() }
        var reachedTheAwait = false
        do {
            try await clock.expectSleepers(1, within: .milliseconds(20))
            reachedTheAwait = true
            gate.continuation.yield()
            await clock.advance(by: .seconds(5))  // too early: the task is not asleep yet
            _ = await sleeper.result  // would wait forever
        } catch is ManualClock.SleepersTimeout {}
        #expect(!reachedTheAwait)
    }
}

/// The test support's collector of async sequences: a sequence that never ends fails the test
/// at the bound instead of holding it forever.
@Suite(.hangLimit)
struct CollectedSequenceTests {
    @Test func aSequenceThatNeverEndsIsCollectedUntilTheBoundAndFailsTheTest() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(1)
        var collected: [Int] = []
        await withKnownIssue {
            collected = await Array(stream, within: .milliseconds(50))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("the sequence did not end within")
        }
        #expect(collected == [1])
        continuation.finish()
    }

    @Test func aSequenceThatEndsIsCollectedWhole() async {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        #expect(await Array(stream) == [1, 2, 3])
    }
}
