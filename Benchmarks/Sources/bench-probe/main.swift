import BenchmarkSupport
import Foundation

// Runs one operation in a loop, with no harness around it: the program to give to
// `valgrind --tool=callgrind` (instruction counts are repeatable where wall-clock time is not).
//
//   bench-probe <operation> [count]
//   bench-probe pairs [--json PATH]
//
// Operations: those of `MeasuredOperation.named` (read, read-limit, read-override,
// read-limit-override, read-anyobject, read-override-anyobject, read-cast, scope, scope-limit,
// notify<N>, notify<N>-raw, and the peers' variants), hour (a one-hour countdown on the
// manual clock), and `energy <ours|naive|limit|timer|store> <seconds>` (cost-benchmarks' energy countdowns,
// with the main thread blocked rather than suspended). The operations are made and run in BenchmarkSupport's nonisolated code, called
// synchronously from the main task, so they stay on the main thread, where valgrind follows the
// program. (Closures written in top-level code here would be isolated to the main actor, and
// `TaskLocal.withValue` would then check the executor on every call: about 150 instructions.)
//
// `pairs` times each target operation against its limit (or a peer) interleaved: 40 blocks of
// each, taken in turn (ours then the limit, then the other way round), and reports the median
// of the block-by-block ratios. The host's slow spells last seconds, so the harness, which times one
// benchmark after the other, can compare ours in a slow spell with the limit in a quick one;
// blocks taken in turn share their spells.

let arguments = Array(CommandLine.arguments.dropFirst())
let operation = arguments.first ?? "read"
let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000

/// Wall-clock nanoseconds per operation of `operation.run(n)`.
func nanosecondsPerOperation(_ operation: MeasuredOperation, _ n: Int) -> Double {
    let start = ContinuousClock.now
    operation.run(n)
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(n)
}

/// The pairs the table's targets compare: its row name, ours, the limit, operations per block.
let pairs: [(row: String, ours: String, limit: String, block: Int)] = [
    ("read", "read", "read-limit", 100_000),
    ("readInOverride", "read-override", "read-limit-override", 100_000),
    // The README's `ValueStore`, on a `FileStorage` and as a stub, against the same limit.
    ("readValueStore", "read-valuestore", "read-limit", 100_000),
    ("readValueStoreStub", "read-valuestore-stub", "read-limit", 100_000),
    ("scope", "scope", "scope-limit", 10_000),
    // A scope that installs a README `ValueStore` (on a `FileStorage`, and a stub).
    ("scopeValueStore", "scope-valuestore", "scope-limit", 10_000),
    ("scopeValueStoreStub", "scope-valuestore-stub", "scope-limit", 10_000),
    // Ours against swift-dependencies' `withDependencies` (skipped when peers are not built).
    ("scopeVsDependencies", "scope", "scope-dependency", 10_000),
    ("scopeValueStoreVsDependencies", "scope-valuestore", "scope-dependency", 10_000),
    ("scopeValueStoreStubVsDependencies", "scope-valuestore-stub", "scope-dependency", 10_000),
    ("notify1", "notify1", "notify1-raw", 1_000),
    ("notify100", "notify100", "notify100-raw", 30),
    ("notify100ValueStoreStub", "notify100-valuestore-stub", "notify100-raw", 30),
    // On a `FileStorage`: each change is also a durable write of the document.
    ("notify100ValueStore", "notify100-valuestore", "notify100-raw", 30),
    ("notify10000", "notify10000", "notify10000-raw", 1),
    ("observe1", "observe1", "observe1-limit", 10_000),
    ("changeLog", "logged1", "notify1", 1_000),
    // 10,000 observers added and removed (oldest first) against `addObserver`/`removeObserver`.
    ("churn", "churn", "churn-raw", 1),
    // Ours against OpenCombine's `CurrentValueSubject.send` (skipped when peers are not built).
    ("notify0VsCombine", "notify0", "notify0-combine", 1_000),
    ("notify1VsCombine", "notify1", "notify1-combine", 1_000),
    ("notify100VsCombine", "notify100", "notify100-combine", 30),
    ("notify10000VsCombine", "notify10000", "notify10000-combine", 1),
]

/// Times every pair interleaved; returns row → figures, and prints one line per pair.
nonisolated func timePairs(blocks: Int = 40) -> [String: PairedRatio] {
    var results: [String: PairedRatio] = [:]
    // `BENCH_PROBE_ROWS=notify1,notify100` times only those rows.
    let rows = ProcessInfo.processInfo.environment["BENCH_PROBE_ROWS"].map { $0.split(separator: ",").map(String.init) }
    for pair in pairs where rows?.contains(pair.row) ?? true {
        guard let ours = MeasuredOperation.named(pair.ours), let limit = MeasuredOperation.named(pair.limit) else { continue }
        // One untimed block of each first: first use of the code and the allocator's warm-up.
        ours.run(pair.block)
        limit.run(pair.block)
        var oursTimes: [Double] = []
        var limitTimes: [Double] = []
        for index in 0..<blocks {
            if index.isMultiple(of: 2) {
                oursTimes.append(nanosecondsPerOperation(ours, pair.block))
                limitTimes.append(nanosecondsPerOperation(limit, pair.block))
            } else {
                limitTimes.append(nanosecondsPerOperation(limit, pair.block))
                oursTimes.append(nanosecondsPerOperation(ours, pair.block))
            }
        }
        let result = PairedRatio(oursTimes: oursTimes, limitTimes: limitTimes)
        results[pair.row] = result
        print(
            String(
                format: "%@: ours %.1f ns, limit %.1f ns, interleaved ratio %.2f× (%d blocks each)",
                pair.row, result.oursNanoseconds, result.limitNanoseconds, result.ratio, blocks))
        fflush(nil)
    }
    return results
}

if operation == "pairs" {
    let results = timePairs()
    if let index = arguments.firstIndex(of: "--json"), index + 1 < arguments.count {
        writeResults(results, to: arguments[index + 1], program: "bench-probe")
    }
} else if operation == "hour" {
    let start = ContinuousClock.now
    let result = await runManualClockHour()
    print("one-hour manual-clock countdown: \(result), \(ContinuousClock.now - start)")
} else if operation == "energy", arguments.count == 3, let seconds = Int(arguments[2]),
    let shown = runEnergyProbe(arguments[1], seconds: seconds)
{
    print("energy \(arguments[1]): \(shown) seconds shown")
} else if let made = MeasuredOperation.named(operation) {
    let nanoseconds = nanosecondsPerOperation(made, count)
    print("\(operation): \(count) operations, \(nanoseconds) ns each")
} else {
    print("unknown operation \(operation); known: \(MeasuredOperation.names), hour, pairs")
    exit(2)
}
