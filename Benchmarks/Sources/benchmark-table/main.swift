import BenchmarkSupport
import Foundation

// Prints the one comparison table of a benchmark run (see BENCHMARKS.md), from the JMH export
// of the ordo-one/benchmark suite and the JSON of countdown-accuracy, both of the same run.
//
//   benchmark-table --jmh PATH [--countdown PATH] [--pairs PATH ...]
//
// Figures are medians (p50) of the measured iterations, divided by the operations per
// iteration (`Catalog.operations`). Ratios are ours ÷ the other; below 1 means ours is faster.
//
// With `--pairs` (the JSON of `bench-probe pairs`, one file per launch), the limit column also
// gives the interleaved ratio — the median over the launches, and their range — and the verdict
// against the limit uses it: the harness times ours and the limit seconds apart, in different
// spells of a shared host's load, where the interleaved blocks share theirs.

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("benchmark-table: \(message)\n".utf8))
    exit(1)
}

// MARK: Reading the run

struct JMHMetric: Decodable {
    let scorePercentiles: [String: Double]
    var median: Double { scorePercentiles["50.0"] ?? 0 }
}

struct JMHElement: Decodable {
    let benchmark: String
    let secondaryMetrics: [String: JMHMetric]?
}

/// One micro-benchmark's figures per operation.
struct Measured {
    /// Median wall-clock time per operation, in nanoseconds.
    let nanoseconds: Double
    /// Median allocations per operation.
    let allocations: Double
}

func loadMeasured() -> [String: Measured] {
    guard let path = option("--jmh") else { return [:] }
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let elements: [JMHElement]
    do { elements = try JSONDecoder().decode([JMHElement].self, from: data) } catch {
        fail("\(path) is not a JMH export of the suite: \(error)")
    }
    var measured: [String: Measured] = [:]
    for element in elements {
        let name = String(element.benchmark.split(separator: ".", maxSplits: 3).last ?? "")
        let operations = Double(Catalog.operations[name] ?? 1)
        let microseconds = element.secondaryMetrics?["Time (wall clock)"]?.median ?? .nan
        let allocations = element.secondaryMetrics?["Malloc (total)"]?.median ?? .nan
        measured[name] = Measured(nanoseconds: microseconds * 1_000 / operations, allocations: allocations / operations)
    }
    return measured
}

let measured = loadMeasured()

/// The interleaved ratios, one entry per launch of `bench-probe pairs`.
let pairedLaunches: [PairedRatios] = CommandLine.arguments.indices.compactMap { index in
    guard CommandLine.arguments[index] == "--pairs", index + 1 < CommandLine.arguments.count else { return nil }
    let path = CommandLine.arguments[index + 1]
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do { return try JSONDecoder().decode(PairedRatios.self, from: data) } catch {
        fail("\(path) is not the output of bench-probe pairs: \(error)")
    }
}

/// The median interleaved ratio of `row` over the launches, and the lowest and highest.
func interleaved(_ row: String) -> (median: Double, low: Double, high: Double)? {
    let ratios = pairedLaunches.compactMap { $0[row]?.ratio }.filter(\.isFinite)
    guard let low = ratios.min(), let high = ratios.max() else { return nil }
    return (PairedRatio.median(ratios), low, high)
}

var countdown: CountdownAccuracyResults = [:]
if let path = option("--countdown"), let data = FileManager.default.contents(atPath: path) {
    countdown = (try? JSONDecoder().decode(CountdownAccuracyResults.self, from: data)) ?? [:]
}

// MARK: Formatting

func time(_ nanoseconds: Double) -> String {
    guard nanoseconds.isFinite else { return "pending" }
    switch nanoseconds {
    case ..<1_000: return String(format: "%.1f ns", nanoseconds)
    case ..<1_000_000: return String(format: "%.2f µs", nanoseconds / 1_000)
    case ..<1_000_000_000: return String(format: "%.2f ms", nanoseconds / 1_000_000)
    default: return String(format: "%.2f s", nanoseconds / 1_000_000_000)
    }
}

func allocations(_ count: Double) -> String {
    guard count.isFinite else { return "" }
    return count < 0.005 ? "0 allocs" : String(format: "%.2g allocs", count)
}

func figure(_ name: String, showAllocations: Bool = true) -> String {
    guard let value = measured[name] else { return "pending" }
    return showAllocations ? "\(time(value.nanoseconds)), \(allocations(value.allocations))" : time(value.nanoseconds)
}

func ratio(_ ours: String, _ other: String) -> Double? {
    guard let a = measured[ours]?.nanoseconds, let b = measured[other]?.nanoseconds, b > 0,
        a.isFinite, b.isFinite
    else { return nil }
    return a / b
}

func ratioText(_ value: Double?) -> String {
    guard let value else { return "pending" }
    return value < 0.5 ? String(format: "%.3f× (%.0f× faster)", value, 1 / value) : String(format: "%.2f×", value)
}

/// The limit column: the ratio of the harness's medians, then the interleaved one if measured.
func limitRatioText(_ harness: Double?, row: String) -> String {
    guard let paired = interleaved(row) else { return ratioText(harness) }
    let launches = pairedLaunches.count
    return "\(ratioText(harness))<br>interleaved: " + String(format: "%.2f×", paired.median)
        + (launches > 1 ? String(format: " (%.2f–%.2f×, %d launches)", paired.low, paired.high, launches) : "")
}

/// The ratio a target against the limit is judged on: interleaved if measured, else the harness's.
func judgedLimitRatio(_ harness: Double?, row: String) -> Double? {
    interleaved(row)?.median ?? harness
}

func peer(_ label: String, _ ours: String, _ other: String) -> String {
    "\(label) \(figure(other)): \(ratioText(ratio(ours, other)))"
}

enum Verdict { case met, missed, pending }
func verdict(_ checks: [Bool?]) -> String {
    if checks.contains(where: { $0 == nil }) { return "pending" }
    return checks.allSatisfy { $0 == true } ? "met" : "**missed**"
}

var rows: [[String]] = []
@MainActor func row(_ cells: String...) { rows.append(cells) }

// MARK: Rows

for (label, prefix) in [("Store read, no override", "read"), ("Store read, inside an override", "readInOverride")] {
    let ours = "\(prefix)/ours"
    let harnessLimit = ratio(ours, "\(prefix)/limit")
    let limit = judgedLimitRatio(harnessLimit, row: prefix)
    let dependency = ratio(ours, "\(prefix)/dependency")
    let swinject = ratio(ours, "\(prefix)/swinject")
    let allocationFree = measured[ours].map { $0.allocations < 0.005 }
    row(
        label, figure(ours), figure("\(prefix)/limit", showAllocations: false), limitRatioText(harnessLimit, row: prefix),
        [peer("`@Dependency`", ours, "\(prefix)/dependency"), peer("Swinject `resolve`", ours, "\(prefix)/swinject")]
            .joined(separator: "<br>"),
        "≤ 1.5× limit; ≤ 0.05× each peer; 0 allocs",
        verdict([limit.map { $0 <= 1.5 }, dependency.map { $0 <= 0.05 }, swinject.map { $0 <= 0.05 }, allocationFree]))
}

do {
    let harnessLimit = ratio("scope/ours", "scope/limit")
    let limit = judgedLimitRatio(harnessLimit, row: "scope")
    let dependency = ratio("scope/ours", "scope/dependency")
    row(
        "One override scope (`withStores`)", figure("scope/ours"), figure("scope/limit"),
        limitRatioText(harnessLimit, row: "scope"),
        peer("`withDependencies`", "scope/ours", "scope/dependency"),
        "≤ 1.5× bare `withValue`; ≤ 0.6× `withDependencies`",
        verdict([limit.map { $0 <= 1.5 }, dependency.map { $0 <= 0.6 }]))
}

for observers in Catalog.notifyObserverCounts {
    let ours = "notify\(observers)/ours"
    let harnessLimit = ratio(ours, "notify\(observers)/raw")
    let limit = judgedLimitRatio(harnessLimit, row: "notify\(observers)")
    let hasTarget = observers > 0
    row(
        "Mutate and notify, \(observers.formatted()) observer\(observers == 1 ? "" : "s")",
        figure(ours), figure("notify\(observers)/raw"), limitRatioText(harnessLimit, row: "notify\(observers)"),
        peer("OpenCombine `send`", ours, "notify\(observers)/opencombine"),
        hasTarget ? "≤ 1.25× raw post" : "—",
        hasTarget ? verdict([limit.map { $0 <= 1.25 }]) : "—")
}

do {
    let harnessLimit = ratio("observe1/ours", "observe1/limit")
    let limit = judgedLimitRatio(harnessLimit, row: "observe1")
    row(
        "A change seen by one `withObservationTracking` observer", figure("observe1/ours"),
        figure("observe1/limit"), limitRatioText(harnessLimit, row: "observe1"), "—",
        "≤ 1.5× an `@Observable` property write", verdict([limit.map { $0 <= 1.5 }]))
}

row(
    "Add and remove \(Catalog.churnObservers.formatted()) observers", figure("churn/ours"), figure("churn/raw"),
    ratioText(ratio("churn/ours", "churn/raw")), peer("OpenCombine `sink`/`cancel`", "churn/ours", "churn/opencombine"),
    "—", "—")

func countdownCell(_ errors: TickErrors?) -> String {
    guard let errors else { return "pending" }
    return String(format: "mean %.2f / max %.2f / last %.2f ms", errors.mean, errors.max, errors.last)
        + (errors.missing > 0 ? " (\(errors.missing) ticks never came)" : "")
}

for (condition, label) in [("idle", "idle"), ("busy", "one core busy")] {
    let results = countdown[condition]
    let ours = results?["ours"]
    let target = condition == "idle" ? "last ≤ 1 ms; max ≤ 2 ms" : "max ≤ 5 ms"
    let checks: [Bool?] =
        condition == "idle"
        ? [ours.map { abs($0.last) <= 1 }, ours.map { $0.max <= 2 }]
        : [ours.map { $0.max <= 5 }]
    row(
        "Countdown, 30 ticks on the real clock, \(label): tick error mean / max / at the last tick",
        countdownCell(ours), "`Task.sleep(until:)` each second: \(countdownCell(results?["deadline"]))", "—",
        "`Task.sleep` loop \(countdownCell(results?["sleep"]))<br>Foundation `Timer` \(countdownCell(results?["timer"]))",
        target, verdict(checks))
}

do {
    let hour = measured["manualClockHour/ours"]
    row(
        "One-hour countdown on the manual clock (3,600 ticks)", figure("manualClockHour/ours", showAllocations: false),
        "—", "—", "—", "≤ 100 ms", verdict([hour.map { $0.nanoseconds <= 100_000_000 }]))
}

for (label, name) in [
    ("Table automaton, transitions per second", "automaton/table"),
    ("Effectful automaton, transitions per second", "automaton/effectful"),
] {
    let perSecond = measured[name].map { String(format: "%.3g /s", 1e9 / $0.nanoseconds) } ?? "pending"
    row(label, "\(perSecond) (\(figure(name)) each)", "—", "—", "—", "—", "—")
}

// MARK: Printing

let header = ["Operation", "Ours", "Limit", "Ours ÷ limit", "Peers: figure, ours ÷ peer", "Target", "Met"]
print("| " + header.joined(separator: " | ") + " |")
print("|" + header.map { _ in " --- " }.joined(separator: "|") + "|")
for cells in rows { print("| " + cells.joined(separator: " | ") + " |") }
