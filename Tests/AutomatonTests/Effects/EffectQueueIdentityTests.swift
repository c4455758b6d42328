import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

/// A queue's name is the queue: effects that name it share one policy and one delay, and a
/// declaration that disagrees is reported and its effect never runs.
@Suite(.hangLimit) struct EffectQueueIdentityTests {
    @Test func queuesDeclaredTwiceAlikeAreOneQueue() async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let automaton = makeJobAutomaton(clock: clock) { name in
            // A new value each time, as when two files each declare the queue.
            let queue = EffectQueue("upload", policy: .oldest(1, whenFull: .suspendNew))
            return timedJob(name, until: 1, clock: clock, log: log, queue: queue)
        }
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        #expect(await automaton.runningEffectCount == 1)
        #expect(await automaton.suspendedEffectCount == 1)
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await first.wait()
        await second.wait()
        #expect(log.values == ["start A @0", "end A", "start B @1", "end B"])
    }

    @Test func declarationsThatBehaveAlikeAreOneQueue() async {
        let clock = ManualClock()
        let log = Recorder<String>()
        let alike = [
            EffectQueue("a", policy: .newest(1)), EffectQueue("a", policy: .newest(0)),
            EffectQueue("a", policy: .newest(-3), delay: .seconds(-1)),
        ]
        let automaton = makeJobAutomaton(clock: clock) { name in
            timedJob(name, until: 1, clock: clock, log: log, queue: alike[Int(name) ?? 0])
        }
        for index in alike.indices { await automaton.send(.start("\(index)")) }
        #expect(await automaton.runningEffectCount == 1)  // newest one: each replaced the previous
        await automaton.shutdown()
    }

    /// Two declarations of the queue "auth" that disagree.
    static let conflicts: [(EffectQueue, EffectQueue)] = [
        (EffectQueue("auth", policy: .newest(1)), EffectQueue("auth")),
        (EffectQueue("auth", policy: .newest(1)), EffectQueue("auth", policy: .newest(2))),
        (
            EffectQueue("auth", policy: .oldest(1, whenFull: .discardNew)),
            EffectQueue("auth", policy: .oldest(1, whenFull: .suspendNew))
        ),
        (EffectQueue("auth", policy: .newest(1)), EffectQueue("auth", policy: .newest(1), delay: .seconds(1))),
    ]

    @Test(arguments: conflicts)
    func aQueueNamedAgainWithAnotherPolicyOrDelayIsReportedAndItsEffectNeverRuns(
        _ declared: EffectQueue, _ other: EffectQueue
    ) async throws {
        let clock = ManualClock()
        let log = Recorder<String>()
        let issues = Recorder<EffectIssue>()
        let automaton = makeJobAutomaton(clock: clock, reportIssue: { issues.append($0) }) { name in
            timedJob(name, until: 1, clock: clock, log: log, queue: name == "A" ? declared : other)
        }
        let first = await automaton.send(.start("A"))
        let second = await automaton.send(.start("B"))
        #expect(second.reply.isSuccess)  // the transition happens; only its effect is refused
        await second.wait()
        #expect(issues.values == [.conflictingQueue(other, existing: declared)])
        #expect(await automaton.runningEffectCount == 1)
        #expect(await automaton.suspendedEffectCount == 0)

        // Still refused once the queue is empty: the first declaration holds for the automaton's life.
        try await clock.expectSleepers(1)
        await clock.advance(to: clock.at(1))
        await first.wait(includingFollowUps: true)
        await automaton.send(.start("B")).wait()
        #expect(issues.values.count == 2)
        #expect(log.values == ["start A @0", "end A"])
    }

    @Test func theIssueNamesBothDeclarationsAndTheFix() {
        let issue = EffectIssue.conflictingQueue(
            EffectQueue("auth", policy: .runAll), existing: EffectQueue("auth", policy: .newest(1)))
        #expect(issue.description.contains("auth"))
        #expect(issue.description.contains("newest(1)"))
        #expect(issue.description.contains("runAll"))
        #expect(issue.description.contains("static let"))
    }
}
