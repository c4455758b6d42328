import SingletonStoresTestSupport
import Foundation
@testable import SingletonStores
import SingletonStoresLocking
import Testing

/// The process's own preparation is sealed as soon as any test reads a store, so the rules are
/// checked on preparations of their own; the process-wide function is checked for the case a
/// test process can see (too late), and demo-cli's launch-variant tests run it for real.
@Suite(.productionStoresAllowed) struct PrepareStoresTests {
    @Test func preparedValuesBecomeTheBaseWhenSealed() {
        let preparation = StorePreparation()
        let issues = Locked<[StoreIssue]>([])
        let applied = preparation.prepare(
            { $0.counter = CounterStub(count: 12) }, reportIssue: { issue in issues.withLock { $0.append(issue) } })
        #expect(applied)
        let base = preparation.seal()
        withStores {
            $0 = base
        } operation: {
            #expect(StoreValues.current.counter.count == 12)
            withStores {
                $0.counter = CounterStub(count: 3)
            } operation: {
                #expect(StoreValues.current.counter.count == 3, "scoped overrides still apply on top")
            }
        }
        #expect(issues.withLock { $0 }.isEmpty)
    }

    @Test func aSecondCallIsReportedAndChangesNothing() {
        let preparation = StorePreparation()
        let issues = Locked<[StoreIssue]>([])
        let report: (StoreIssue) -> Void = { issue in issues.withLock { $0.append(issue) } }
        #expect(preparation.prepare({ $0.counter = CounterStub(count: 1) }, reportIssue: report))
        #expect(!preparation.prepare({ $0.counter = CounterStub(count: 2) }, reportIssue: report))
        #expect(issues.withLock { $0 } == [.storesAlreadyPrepared])
        withStores {
            $0 = preparation.seal()
        } operation: {
            #expect(StoreValues.current.counter.count == 1)
        }
    }

    @Test func aCallAfterSealingIsReportedAndChangesNothing() {
        let preparation = StorePreparation()
        let issues = Locked<[StoreIssue]>([])
        let first = preparation.seal()
        #expect(
            !preparation.prepare(
                { $0.counter = CounterStub(count: 9) }, reportIssue: { issue in issues.withLock { $0.append(issue) } }))
        #expect(issues.withLock { $0 } == [.storesPreparedAfterUse])
        withStores {
            $0 = first
        } operation: {
            #expect(StoreValues.current.counter is CounterStore)
        }
        withStores {
            $0 = preparation.seal()
        } operation: {
            #expect(StoreValues.current.counter is CounterStore, "sealing again still gives the defaults")
        }
    }

    @Test func prepareStoresAfterAReadIsReportedAndIgnored() {
        let issues = Locked<[StoreIssue]>([])
        withStores {
            $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
        } operation: {
            _ = StoreValues.current.counter
            let applied = prepareStores { $0.counter = CounterStub(count: 77) }
            #expect(!applied)
        }
        #expect(issues.withLock { $0 } == [.storesPreparedAfterUse])
        #expect(StoreValues.current.counter is CounterStore, "the base values are unchanged")
        #expect("\(StoreIssue.storesPreparedAfterUse)".contains("before any code reads"))
    }

    @Test func aThrowingUpdatePreparesNothing() {
        struct Refused: Error {}
        let preparation = StorePreparation()
        #expect(throws: Refused.self) {
            try preparation.prepare({ _ in throw Refused() }, reportIssue: { _ in })
        }
        #expect(preparation.prepare({ $0.counter = CounterStub(count: 4) }, reportIssue: { _ in }))
    }
}
