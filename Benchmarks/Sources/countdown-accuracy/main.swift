import BenchmarkSupport
import Foundation

// Countdown accuracy on the real clock: each variant counts down N seconds (30 by default),
// idle and then while a shell loop started here keeps one core busy. Variants run one after
// another in this one process, so ~30 s per variant per condition.
//
//   countdown-accuracy [--ticks N] [--variants ours,deadline,sleep,timer] [--conditions idle,busy]
//                      [--together] [--json PATH]
//
// --together runs the variants of a condition at the same time instead of one after another, so
// that a stall of the host falls on all of them alike: a tick late in one variant and on time in
// the others was late for a reason of its own.

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let ticks = option("--ticks").flatMap(Int.init).map { max(1, $0) } ?? 30
let variants = (option("--variants")?.split(separator: ",").map(String.init) ?? CountdownVariant.allCases.map(\.rawValue))
    .compactMap(CountdownVariant.init(rawValue:))
let conditions = option("--conditions")?.split(separator: ",").map(String.init) ?? ["idle", "busy"]

var results: CountdownAccuracyResults = [:]
for condition in conditions {
    var busy: BusyCore?
    if condition == "busy" {
        do { busy = try BusyCore() } catch {
            FileHandle.standardError.write(Data("countdown-accuracy: cannot start the busy loop: \(error)\n".utf8))
            continue
        }
    }
    defer { busy?.stop() }
    func report(_ variant: CountdownVariant, _ measured: TickErrors) {
        results[condition, default: [:]][variant.rawValue] = measured
        print(
            "\(condition) \(variant.rawValue): "
                + String(format: "mean %.3f ms, max %.3f ms, last %.3f ms", measured.mean, measured.max, measured.last)
                + (measured.missing > 0 ? ", \(measured.missing) ticks missing" : ""))
        fflush(nil)
    }
    if CommandLine.arguments.contains("--together") {
        let names = variants.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("countdown-accuracy: \(names) together, \(condition), \(ticks) ticks…\n".utf8))
        let measured = await withTaskGroup(of: (CountdownVariant, TickErrors).self) { group in
            for variant in variants { group.addTask { (variant, await variant.run(ticks: ticks)) } }
            var all: [(CountdownVariant, TickErrors)] = []
            for await result in group { all.append(result) }
            return all
        }
        for (variant, errors) in measured.sorted(by: { $0.0.rawValue < $1.0.rawValue }) { report(variant, errors) }
    } else {
        for variant in variants {
            FileHandle.standardError.write(Data("countdown-accuracy: \(variant.rawValue), \(condition), \(ticks) ticks…\n".utf8))
            report(variant, await variant.run(ticks: ticks))
        }
    }
    busy?.stop()
}

if let path = option("--json") {
    writeResults(results, to: path, program: "countdown-accuracy")
}
