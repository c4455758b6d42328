import SingletonStoresTestSupport
import SingletonStoresLocking
import SingletonStoresTesting
import Testing

@Suite(.strictStores)
struct StrictStoresTraitTests {
    @Test func aProductionReadFailsTheTestNamingTheKeyAndTheTest() {
        withKnownIssue {
            let counter = StoreValues.current.counter
            #expect(counter.count == -1, "the stub is returned, the production store is not touched")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("SingletonStoresTestSupport.CounterKey")
                && text.contains("aProductionReadFailsTheTestNamingTheKeyAndTheTest()")
        }
    }

    @Test(.stores { $0.counter = CounterStub(count: 3) })
    func aStubbedKeyPasses() {
        #expect(StoreValues.current.counter.count == 3)
    }

    @Test(.stubbedStores)
    func stubbedStoresPassEvenForKeysWithoutAProductionValue() {
        #expect(StoreValues.current.counter.count == -1)
        #expect(StoreValues.current.weather.forecast == "stub sunshine")
    }

    @Test func aReadInsideAChildTaskFailsToo() async {
        await withKnownIssue {
            let count = await Task { StoreValues.current.counter.count }.value
            #expect(count == -1)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("CounterKey")
        }
    }
}

@Suite struct StrictStoresTraitForwardingTests {
    @Test(.stores { $0.reportIssue = { issue in Self.forwarded.withLock { $0.append(issue) } } }, .strictStores)
    func otherIssuesGoToTheReporterBeforeTheTrait() {
        let issue = StoreIssue.unusableStoredValue(key: "settings", message: "kept")
        StoreValues.current.reportIssue(issue)
        #expect(Self.forwarded.withLock { $0 } == [issue])
    }

    private static let forwarded = Locked<[StoreIssue]>([])
}
