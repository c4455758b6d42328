import SingletonStoresTestSupport
import Foundation
import SingletonStoresTesting
import Testing

@Suite(.stores { $0.counter = CounterStub(count: 1) })
struct StoresTraitTests {
    @Test func theSuiteTraitAppliesToASyncTest() {
        #expect(StoreValues.current.counter.count == 1)
    }

    @Test(.stores { $0.counter = CounterStub(count: 2) })
    func theTestTraitWinsOverTheSuiteTraitForTheSameKey() {
        #expect(StoreValues.current.counter.count == 2)
    }

    @Test(.stores { $0.weather = WeatherStub(forecast: "rain") })
    func suiteAndTestTraitsComposeForDifferentKeys() {
        #expect(StoreValues.current.counter.count == 1)
        #expect(StoreValues.current.weather.forecast == "rain")
    }

    @Test(.stores { $0.counter = CounterStub(count: 5) })
    func anAsyncTestAndItsChildTasksSeeTheTrait() async {
        await Task.yield()
        #expect(StoreValues.current.counter.count == 5)
        let fromTask = await Task { StoreValues.current.counter.count }.value
        #expect(fromTask == 5)
        let fromGroup = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { StoreValues.current.counter.count } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(fromGroup == [5, 5, 5, 5])
    }

    @Test(arguments: [10, 20, 30])
    func everyCaseOfAParameterizedTestGetsItsOwnFreshScope(increments: Int) {
        // Each case gets a stub of its own from the suite trait: the increments of one case
        // never show in another.
        let counter = StoreValues.current.counter
        for _ in 0..<increments { counter.increment() }
        #expect(counter.count == 1 + increments)
    }
}

private struct TraitRefusal: Error {}

@Suite struct StoresTraitScopeTests {
    @Test(.productionStores) func aTestThatAllowsProductionStoresSeesTheProductionStore() {
        #expect(StoreValues.current.counter is CounterStore)
    }

    @Test(.productionStores) func aTraitAppliesOnlyInsideItsScope() async throws {
        let trait = StoresTrait.stores { $0.counter = CounterStub(count: 9) }
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            #expect(StoreValues.current.counter.count == 9)
        }
        #expect(StoreValues.current.counter is CounterStore)
        #expect(trait.isRecursive, "a suite's trait reaches each of its tests")
    }

    @Test func aThrowingTraitFailsBeforeTheTestRuns() async throws {
        let trait = StoresTrait.stores { _ in throw TraitRefusal() }
        let test = try #require(Test.current)
        await #expect(throws: TraitRefusal.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                Issue.record("unreachable: the trait threw before the test ran")
            }
        }
    }
}

@Suite(.stubbedStores)
struct StubbedStoresTraitTests {
    @Test func everyKeyReadsItsStub() {
        #expect(StoreValues.current.counter.count == -1)
        #expect(StoreValues.current.weather.forecast == "stub sunshine")
    }

    @Test(.stores { $0.counter = CounterStub(count: 4) })
    func anOverrideStillWins() {
        #expect(StoreValues.current.counter.count == 4)
        #expect(StoreValues.current.weather.forecast == "stub sunshine")
    }
}
