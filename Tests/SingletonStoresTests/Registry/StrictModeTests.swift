import SingletonStoresTestSupport
import Foundation
import SingletonStores
import SingletonStoresLocking
import Testing

@Suite struct StrictModeTests {
    @Test func aProductionReadIsReportedWithTheKeyAndReturnsTheStub() {
        let issues = Locked<[StoreIssue]>([])
        withStores {
            $0.forbidProductionValues()
            $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
        } operation: {
            let counter = StoreValues.current.counter
            #expect(counter.count == -1, "the stub, not CounterStore.shared")
            #expect(!(counter is CounterStore))
        }
        let reported = issues.withLock { $0 }
        #expect(reported == [.productionValueForbidden(key: String(reflecting: CounterKey.self))])
        let message = "\(reported.first.map(String.init(describing:)) ?? "")"
        #expect(message.contains("CounterKey") && message.contains("withStores"))
    }

    @Test func overriddenAndStubbedKeysReadWithoutAReport() {
        let issues = Locked<[StoreIssue]>([])
        withStores {
            $0.forbidProductionValues()
            $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
            $0.counter = CounterStub(count: 5)
        } operation: {
            #expect(StoreValues.current.counter.count == 5)
            withStores {
                $0.useStubs()
            } operation: {
                #expect(StoreValues.current.weather.forecast == "stub sunshine")
                #expect(StoreValues.current.otherCounterForStrictTests.count == -1)
            }
        }
        #expect(issues.withLock { $0 }.isEmpty)
    }

    @Test func aKeyWithoutAProductionValueIsReportedAsForbiddenToo() {
        let issues = Locked<[StoreIssue]>([])
        withStores {
            $0.forbidProductionValues()
            $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
        } operation: {
            #expect(StoreValues.current.weather.forecast == "stub sunshine")
        }
        #expect(issues.withLock { $0 } == [.productionValueForbidden(key: String(reflecting: WeatherKey.self))])
    }

    @Test func strictModeSurvivesRemovingAnOverrideAndIsSetOnce() {
        var values = StoreValues()
        values.forbidProductionValues()
        values.forbidProductionValues()
        values.counter = CounterStub(count: 1)
        values.removeOverride(for: CounterKey.self)
        let issues = Locked<[StoreIssue]>([])
        values.reportIssue = { issue in issues.withLock { $0.append(issue) } }
        withStores {
            $0 = values
        } operation: {
            _ = StoreValues.current.counter
        }
        #expect(issues.withLock { $0 }.count == 1)
    }
}

/// A second production key, so the useStubs check does not depend on CounterKey.
private enum OtherCounterKey: ProductionStoreKey {
    static var productionValue: any CounterContract { CounterStore.shared }
    static var stubValue: any CounterContract { CounterStub(count: -1) }
}

extension StoreValues {
    fileprivate var otherCounterForStrictTests: any CounterContract { self[OtherCounterKey.self] }
}
