import SingletonStoresLocking
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

/// Inside a test, a store without an override reads its stub and fails the test — with no trait —
/// because SingletonStoresTesting is linked into this process.
@Suite struct StrictByDefaultTests {
    @Test func aTestThatForgetsAStubFailsNamingTheKeyAndTheFixAndReadsTheStub() {
        var count: Int?
        withKnownIssue {
            count = StoreValues.current.counter.count
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("SingletonStoresTestSupport.CounterKey") && text.contains(".productionStores")
                && text.contains(".stubbedStores") && text.contains("aTestThatForgetsAStub")
        }
        #expect(count == -1, "the stub was read; the production store was not touched")
    }

    /// The kit finds the guard by its mangled name: renaming or moving the type must change the
    /// name the kit looks for.
    @Test func theKitFindsTheGuardByItsName() {
        #expect(_typeByName(TestGuardLink.guardTypeName) == ProductionStoreGuard.self)
    }

    @Test func childTasksOfTheTestAreGuardedToo() async {
        await withKnownIssue {
            let count = await Task { StoreValues.current.counter.count }.value
            #expect(count == -1)
        }
    }

    @Test(.productionStores) func theProductionStoresTraitAllowsTheRead() {
        #expect(StoreValues.current.counter is CounterStore)
    }

    @Test func allowingInAScopeAndForbiddingAgain() {
        let issues = Locked<[StoreIssue]>([])
        withStores {
            $0.allowProductionValues()
        } operation: {
            #expect(StoreValues.current.counter is CounterStore)
            withStores {
                $0.forbidProductionValues()
                $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
            } operation: {
                #expect(StoreValues.current.counter.count == -1)
            }
            withStores {
                $0.allowProductionValues()
            } operation: {
                #expect(StoreValues.current.counter is CounterStore)
            }
        }
        #expect(issues.withLock { $0 } == [.productionValueForbidden(key: "SingletonStoresTestSupport.CounterKey")])
    }

    @Test func overridesAndStubsReadAsUsual() {
        withStores {
            $0.counter = CounterStub(count: 4)
        } operation: {
            #expect(StoreValues.current.counter.count == 4)
        }
        withStores {
            $0.useStubs()
        } operation: {
            #expect(StoreValues.current.counter.count == -1)
        }
    }

    @Test func codeOutsideAnyTestReadsTheProductionStore() async {
        // A detached task is not part of the test (no `Test.current`): as in an app, it reads the
        // production store, silently.
        let isProduction = await Task.detached { StoreValues.current.counter is CounterStore }.value
        #expect(isProduction)
    }
}
