import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

@Suite(.productionStoresAllowed) struct StoreValuesTests {
    @Test func withNoOverrideTheProductionSingletonIsCurrent() {
        #expect(StoreValues.current.counter as? CounterStore === CounterStore.shared)
    }

    @Test func syncOverrideAppliesInsideTheScopeOnly() {
        let stub = CounterStub(count: 7)
        withStores {
            $0.counter = stub
        } operation: {
            #expect(StoreValues.current.counter.count == 7)
        }
        #expect(StoreValues.current.counter as? CounterStore === CounterStore.shared)
    }

    @Test func asyncOverrideReachesChildTasksAndUnstructuredTasks() async {
        await withStores {
            $0.counter = CounterStub(count: 3)
        } operation: {
            async let child = StoreValues.current.counter.count
            let unstructured = await Task { StoreValues.current.counter.count }.value
            let detachedSeesProduction = await Task.detached {
                StoreValues.current.counter as? CounterStore === CounterStore.shared
            }.value
            #expect(await child == 3)
            #expect(unstructured == 3)
            #expect(detachedSeesProduction, "a detached task does not inherit overrides")
        }
    }

    /// The registry reads its task-local through the runtime directly; these are the places
    /// `TaskLocal.get()` looks that a plain test task does not: a task group's children, and a
    /// thread with no task at all (a scope there binds its values to the thread).
    @Test func overridesReachTaskGroupChildrenAndAThreadWithNoTask() async {
        let counts = await withStores {
            $0.counter = CounterStub(count: 4)
        } operation: {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<3 { group.addTask { StoreValues.current.counter.count } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(counts == [4, 4, 4])

        let onThread = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            Thread.detachNewThread {
                let outside = StoreValues.current.counter as? CounterStore === CounterStore.shared ? 0 : -1
                let inside = withStores {
                    $0.counter = CounterStub(count: 5)
                } operation: {
                    withStores {
                        $0.weather = WeatherStub(forecast: "fog")
                    } operation: {
                        StoreValues.current.counter.count
                    }
                }
                let after = StoreValues.current.counter as? CounterStore === CounterStore.shared ? 0 : -1
                continuation.resume(returning: [outside, inside, after])
            }
        }
        #expect(onThread == [0, 5, 0])
    }

    @Test func nestedScopesLayerAndRestore() {
        withStores {
            $0.counter = CounterStub(count: 1)
        } operation: {
            withStores {
                $0.weather = WeatherStub(forecast: "rain")
            } operation: {
                #expect(StoreValues.current.counter.count == 1)
                #expect(StoreValues.current.weather.forecast == "rain")
                withStores {
                    $0.counter = CounterStub(count: 2)
                } operation: {
                    #expect(StoreValues.current.counter.count == 2)
                }
                #expect(StoreValues.current.counter.count == 1)
            }
        }
    }

    @Test func removeOverrideFallsBackToTheDefault() {
        withStores {
            $0.counter = CounterStub(count: 1)
        } operation: {
            withStores {
                $0.removeOverride(for: CounterKey.self)
            } operation: {
                #expect(StoreValues.current.counter as? CounterStore === CounterStore.shared)
            }
        }
    }

    @Test func useStubsMakesEveryUnsetKeyReadItsStub() {
        withStores {
            $0.useStubs()
        } operation: {
            #expect(StoreValues.current.counter.count == -1)
            #expect(StoreValues.current.weather.forecast == "stub sunshine")
        }
    }

    @Test func readingAKeyWithoutProductionValueReportsAnIssueNamingTheKey() {
        let reports = Recorder<StoreIssue>()
        let forecast = withStores {
            $0.reportIssue = { reports.append($0) }
        } operation: {
            StoreValues.current.weather.forecast
        }
        #expect(forecast == "stub sunshine")
        #expect(reports.values == [.noProductionValue(key: String(reflecting: WeatherKey.self))])
        let message = reports.values.first?.description ?? ""
        #expect(message.contains("WeatherKey"))
        #expect(message.contains("withStores"), "the message says how to fix it")
    }

    @Test func anOverriddenKeyWithoutProductionValueReportsNothing() {
        let reports = Recorder<StoreIssue>()
        withStores {
            $0.reportIssue = { reports.append($0) }
            $0.weather = WeatherStub(forecast: "snow")
        } operation: {
            #expect(StoreValues.current.weather.forecast == "snow")
        }
        #expect(reports.count == 0)
    }

    @Test func genericCodeOverStoreKeyStillFindsTheProductionValue() {
        func read<Key: StoreKey>(_ key: Key.Type) -> Key.Value { StoreValues.current[key] }
        let reports = Recorder<StoreIssue>()
        withStores {
            $0.reportIssue = { reports.append($0) }
        } operation: {
            #expect(read(CounterKey.self) as? CounterStore === CounterStore.shared)
        }
        #expect(reports.count == 0)
    }

    @Test func aKeyDeepInALongOverrideListReadsItsOwnValue() {
        // The read walks the override list without reference counting and trusts the node
        // under a key's slot to hold that key's value type: every layer here puts a different
        // value type in front of the one read.
        withStores {
            $0.counter = CounterStub(count: 11)
            $0.reportIssue = { _ in }
            $0.useStubs()
            $0.weather = WeatherStub(forecast: "fog")
            $0.counter = CounterStub(count: 12)
        } operation: {
            withStores {
                $0.weather = WeatherStub(forecast: "hail")
            } operation: {
                #expect(StoreValues.current.counter.count == 12, "setting a key again replaces it")
                #expect(StoreValues.current.weather.forecast == "hail")
            }
            #expect(StoreValues.current.weather.forecast == "fog")
        }
    }

    @Test func aTaskStartedInsideAScopeReadsItsOverridesAfterTheScopeHasEnded() async {
        let gate = AsyncStream<Void>.makeStream()
        let task = withStores {
            $0.counter = CounterStub(count: 5)
            $0.weather = WeatherStub(forecast: "drizzle, then heavy rain by noon")
        } operation: {
            Task {
                for await _ in gate.stream { break }
                return (StoreValues.current.counter.count, StoreValues.current.weather.forecast)
            }
        }
        // The scope is over; only the task's inherited values keep the override list alive.
        #expect(StoreValues.current.counter as? CounterStore === CounterStore.shared)
        gate.continuation.yield()
        let (count, forecast) = await task.value
        #expect(count == 5)
        #expect(forecast == "drizzle, then heavy rain by noon")
    }
}
