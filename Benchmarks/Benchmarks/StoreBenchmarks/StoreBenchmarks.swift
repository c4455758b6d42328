import Benchmark
import BenchmarkSupport
import Dependencies
import Foundation
import OpenCombine
import Stores
import Automaton

// Every benchmark loops `Catalog.operations[name]` times per measured iteration; the table
// (`benchmark-table`) divides the recorded time and allocations by that count.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: .milliseconds(1_500),
        maxIterations: 2_000)

    func operations(_ name: String) -> Int { Catalog.operations[name] ?? 1 }

    // MARK: Store read

    Benchmark("read/ours") { benchmark in
        for _ in 0..<operations(benchmark.name) { blackHole(readThroughRegistry()) }
    }
    Benchmark("read/limit") { benchmark in
        for _ in 0..<operations(benchmark.name) { blackHole(Limit.read()) }
    }
    Benchmark("read/dependency") { benchmark in
        let model = DependencyModel()
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) { blackHole(model.read()) }
        benchmark.stopMeasurement()
    }
    Benchmark("read/swinject") { benchmark in
        let fixture = SwinjectFixture()
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) { blackHole(fixture.read()) }
        benchmark.stopMeasurement()
    }

    // MARK: Store read inside an override

    Benchmark("readInOverride/ours") { benchmark in
        let stub = BenchStoreStub()
        withStores { $0[BenchStoreKey.self] = stub } operation: {
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { blackHole(readThroughRegistry()) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("readInOverride/limit") { benchmark in
        Limit.$current.withValue(Limit.Values(override: LimitStore(value: 42))) {
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { blackHole(Limit.read()) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("readInOverride/dependency") { benchmark in
        withDependencies { $0.benchStore = BenchStoreStub() } operation: {
            let model = DependencyModel()
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { blackHole(model.read()) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("readInOverride/swinject") { benchmark in
        let fixture = SwinjectFixture(stub: BenchStoreStub())
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) { blackHole(fixture.read()) }
        benchmark.stopMeasurement()
    }

    // MARK: Override scope

    Benchmark("scope/ours") { benchmark in
        let stub = BenchStoreStub()
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) {
            withStores { $0[BenchStoreKey.self] = stub } operation: { consume(0) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("scope/limit") { benchmark in
        let stub = LimitStore(value: 42)
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) {
            Limit.$current.withValue(Limit.Values(override: stub)) { consume(0) }
        }
        benchmark.stopMeasurement()
    }
    Benchmark("scope/dependency") { benchmark in
        let stub = BenchStoreStub()
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) {
            withDependencies { $0.benchStore = stub } operation: { consume(0) }
        }
        benchmark.stopMeasurement()
    }

    // MARK: Mutate and notify

    for observers in Catalog.notifyObserverCounts {
        Benchmark("notify\(observers)/ours") { benchmark in
            let fixture = OursNotify(observers: observers)
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { fixture.mutate() }
            benchmark.stopMeasurement()
        }
        Benchmark("notify\(observers)/raw") { benchmark in
            let fixture = RawNotify(observers: observers)
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { fixture.mutate() }
            benchmark.stopMeasurement()
        }
        Benchmark("notify\(observers)/opencombine") { benchmark in
            let fixture = CombineNotify(observers: observers)
            benchmark.startMeasurement()
            for _ in 0..<operations(benchmark.name) { fixture.mutate() }
            benchmark.stopMeasurement()
        }
    }

    // MARK: Adding and removing observers

    Benchmark("churn/ours") { benchmark in
        let store = BenchStore(center: NotificationCenter())
        benchmark.startMeasurement()
        ObserverChurn.ours(store, count: Catalog.churnObservers)
        benchmark.stopMeasurement()
    }
    Benchmark("churn/raw") { benchmark in
        let center = NotificationCenter()
        benchmark.startMeasurement()
        ObserverChurn.raw(center, count: Catalog.churnObservers)
        benchmark.stopMeasurement()
    }
    Benchmark("churn/opencombine") { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        benchmark.startMeasurement()
        ObserverChurn.combine(subject, count: Catalog.churnObservers)
        benchmark.stopMeasurement()
    }

    // MARK: Manual clock and automata

    Benchmark("manualClockHour/ours", configuration: .init(maxDuration: .seconds(5), maxIterations: 20)) {
        benchmark in
        let result = await runManualClockHour()
        if result.ticks != 3_601 || !result.ended {
            print("manualClockHour: expected 3,601 ticks and an end, got \(result)")
        }
    }
    Benchmark("automaton/table") { benchmark in
        guard var automaton = try? makeTableAutomaton() else { return }
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) { blackHole(automaton.send(.flip)) }
        benchmark.stopMeasurement()
    }
    Benchmark("automaton/effectful") { benchmark in
        let automaton = makeEffectAutomaton()
        benchmark.startMeasurement()
        for _ in 0..<operations(benchmark.name) { blackHole(await automaton.send(.flip).reply) }
        benchmark.stopMeasurement()
        await automaton.shutdown()
    }
}
