import SingletonStoresTestSupport
import Foundation
import SingletonStoresLocking
@testable import SingletonStoresTesting
import Testing
import Timers

@Suite(.hangLimit) struct ExpectChangesTests {
    private let center = NotificationCenter()

    @Test func passesWhenExactlyTheExpectedChangesHappenInOrder() {
        let counter = CounterStore(center: center)
        let recorded = expectChanges(
            on: center,
            [
                RecordedChange(.counter, StoreChange(old: 0, new: 1)),
                RecordedChange(.counter, StoreChange(old: 1, new: 2)),
            ]
        ) {
            counter.increment()
            counter.increment()
        }
        #expect(recorded.count == 2)
    }

    @Test func failsForAChangeTheTestDidNotExpect() {
        let counter = CounterStore(center: center)
        withKnownIssue {
            expectChanges(on: center, [RecordedChange(.counter, StoreChange(old: 0, new: 1))]) {
                counter.increment()
                counter.increment()
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.hasPrefix("A change happened that the test did not expect:\n  SingletonStoresTests.counter: 1 → 2")
                && text.contains("Recorded:\n  SingletonStoresTests.counter: 0 → 1\n  SingletonStoresTests.counter: 1 → 2")
                && Self.isInThisFile(issue)
        }
    }

    @Test func failsForAnExpectedChangeThatDidNotHappen() {
        let counter = CounterStore(center: center)
        withKnownIssue {
            expectChanges(
                on: center,
                [
                    RecordedChange(.counter, StoreChange(old: 0, new: 1)),
                    RecordedChange(.counter, StoreChange(old: 1, new: 2)),
                ]
            ) {
                counter.increment()
            }
        } matching: { issue in
            Self.text(of: issue).hasPrefix("An expected change did not happen:\n  SingletonStoresTests.counter: 1 → 2")
                && Self.isInThisFile(issue)
        }
    }

    @Test func failsWhenTheChangesComeInAnotherOrder() {
        let counter = CounterStore(center: center)
        let other = CounterStore(center: center, channel: .other)
        withKnownIssue {
            expectChanges(
                on: center,
                [
                    RecordedChange(.other, StoreChange(old: 0, new: 1)),
                    RecordedChange(.counter, StoreChange(old: 0, new: 1)),
                ]
            ) {
                counter.increment()
                other.increment()
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.hasPrefix("The expected changes happened, but in another order.")
                && text.contains("Expected:\n  SingletonStoresTests.other: 0 → 1\n  SingletonStoresTests.counter: 0 → 1")
                && text.contains("Recorded:\n  SingletonStoresTests.counter: 0 → 1\n  SingletonStoresTests.other: 0 → 1")
        }
    }

    @Test func reportsEveryKindThatApplies() {
        let counter = CounterStore(center: center)
        let kinds = Locked<[String]>([])
        withKnownIssue {
            expectChanges(on: center, [RecordedChange(.other, StoreChange(old: 0, new: 1))]) {
                counter.increment()
            }
        } matching: { issue in
            kinds.withLock { $0.append(String(Self.text(of: issue).prefix(12))) }
            return true
        }
        #expect(kinds.withLock { $0 } == ["A change hap", "An expected "])
    }

    @Test func partialChecksOnlyTheExpectedChanges() {
        let counter = CounterStore(center: center)
        let other = CounterStore(center: center, channel: .other)
        expectChanges(on: center, [RecordedChange(.counter, StoreChange(old: 1, new: 2))], exhaustivity: .partial) {
            counter.increment()
            other.increment()
            counter.increment()
        }
        withKnownIssue {
            expectChanges(
                on: center,
                [
                    RecordedChange(.counter, StoreChange(old: 2, new: 3)),
                    RecordedChange(.other, StoreChange(old: 1, new: 2)),
                ], exhaustivity: .partial
            ) {
                other.increment()
                counter.increment()
            }
        } matching: { issue in
            Self.text(of: issue).hasPrefix("The expected changes happened, but in another order.")
        }
        withKnownIssue {
            expectChanges(on: center, [RecordedChange(.counter, StoreChange(old: 9, new: 10))], exhaustivity: .partial) {
                counter.increment()
            }
        } matching: { issue in
            Self.text(of: issue).hasPrefix("An expected change did not happen:")
        }
    }

    @Test func waitsForChangesDeliveredOnAnotherThread() async {
        let counter = CounterStore(center: center)
        let queue = OperationQueue()
        let recorded = await expectChanges(
            on: center,
            [
                RecordedChange(.counter, StoreChange(old: 0, new: 1)),
                RecordedChange(.counter, StoreChange(old: 1, new: 2)),
            ], timeout: .seconds(60)
        ) {
            queue.addOperation {
                counter.increment()
                counter.increment()
            }
        }
        #expect(recorded.count == 2)
    }

    @Test func aChangeThatNeverComesFailsAtTheDeadlineOfTheGivenClock() async throws {
        let counter = CounterStore(center: center)
        let clock = ManualClock()
        async let check: Void = withKnownIssue {
            await expectChanges(
                on: center, [RecordedChange(.counter, StoreChange(old: 0, new: 1))], timeout: .seconds(5), clock: clock
            ) {
                await Task.yield()
            }
        } matching: { issue in
            Self.text(of: issue).hasPrefix("An expected change did not happen:\n  SingletonStoresTests.counter: 0 → 1")
        }
        try await clock.expectSleepers(1)
        await clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1, "still waiting before the deadline")
        await clock.advance(by: .seconds(1))
        await check
        #expect(counter.count == 0)
    }

    @Test func aWaitOnAClockNobodyAdvancesFailsWithinItsRealTimeBound() async {
        let counter = CounterStore(center: center)
        let issues = Locked<[String]>([])
        let started = ContinuousClock.now
        await withKnownIssue {
            await expectChanges(
                on: center, [RecordedChange(.counter, StoreChange(old: 0, new: 1))], timeout: .seconds(5),
                clock: ManualClock(), realTimeBound: .milliseconds(200), sourceLocation: #_sourceLocation
            ) {
                await Task.yield()
            }
        } matching: { issue in
            issues.withLock { $0.append(Self.text(of: issue)) }
            return true
        }
        let texts = issues.withLock { $0 }
        #expect(texts.count == 2, "\(texts)")
        #expect(
            texts.first?.hasPrefix(
                "expectChanges gave up after 0.2 seconds of real time: its clock (ManualClock) never reached the "
                    + "timeout of 5.0 seconds.") == true, "\(texts)")
        #expect(texts.last?.hasPrefix("An expected change did not happen:\n  SingletonStoresTests.counter: 0 → 1") == true)
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(200) && waited < .seconds(60), "\(waited)")
        #expect(counter.count == 0)
        #expect(expectChangesRealTimeBound == .seconds(600))
    }

    @Test func anAsyncActionIsAwaitedAndCheckedExhaustively() async {
        let counter = CounterStore(center: center)
        await withKnownIssue {
            await expectChanges(on: center, [], clock: ManualClock()) {
                await Task.detached { counter.increment() }.value
            }
        } matching: { issue in
            Self.text(of: issue).hasPrefix("A change happened that the test did not expect:")
        }
    }

    private static func text(of issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined()
    }

    private static func isInThisFile(_ issue: Issue) -> Bool {
        issue.sourceLocation?.fileName == "ExpectChangesTests.swift"
    }
}
