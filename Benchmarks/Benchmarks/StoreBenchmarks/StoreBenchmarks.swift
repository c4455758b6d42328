import Benchmark
import BenchmarkSupport
import Foundation
import OpenCombine
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

    /// A benchmark that runs `operation` (see `MeasuredOperation.named`) as many times per
    /// iteration as the catalog says; the operation is made, with its set-up, before measuring.
    func benchmark(_ name: String, running operation: String) {
        Benchmark(name) { benchmark in
            guard let made = MeasuredOperation.named(operation) else {
                benchmark.error("no operation named \(operation)")
                return
            }
            benchmark.startMeasurement()
            made.run(operations(benchmark.name))
            benchmark.stopMeasurement()
        }
    }

    // MARK: Store read, override scope

    for (name, operation) in [
        ("read/ours", "read"), ("read/limit", "read-limit"),
        ("read/dependency", "read-dependency"), ("read/swinject", "read-swinject"),
        ("readInOverride/ours", "read-override"), ("readInOverride/limit", "read-limit-override"),
        ("readInOverride/dependency", "read-override-dependency"),
        ("readInOverride/swinject", "read-override-swinject"),
        ("scope/ours", "scope"), ("scope/limit", "scope-limit"), ("scope/dependency", "scope-dependency"),
    ] {
        benchmark(name, running: operation)
    }

    // MARK: Mutate and notify

    for observers in Catalog.notifyObserverCounts {
        benchmark("notify\(observers)/ours", running: "notify\(observers)")
        benchmark("notify\(observers)/raw", running: "notify\(observers)-raw")
        benchmark("notify\(observers)/opencombine", running: "notify\(observers)-combine")
    }

    // MARK: Observation: a committed change seen by one withObservationTracking observer

    do {
        benchmark("observe1/ours", running: "observe1")
        benchmark("observe1/limit", running: "observe1-limit")
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
