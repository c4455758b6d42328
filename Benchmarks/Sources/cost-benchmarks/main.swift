import BenchmarkSupport
import Foundation

// The costs an app feels beyond a single call, each against its limit (see BENCHMARKS.md):
//
//   cost-benchmarks [--quick] [--rows persisted,latency,energy,idle,history,launch,slider,handles]
//                   [--json PATH] [--demo-cli PATH]
//
// persisted  one persisted update vs the same bytes written by hand with the same durability
//            (and without the folder fsync), UserDefaults, GRDB (FULL and NORMAL) and the
//            journal spike; fsyncs per write counted with strace when it is installed
// latency    a change from a writer process to three watcher processes at once: events,
//            polling, bare inotify
// energy     CPU time and wake-ups of a countdown on two screens: ours, naive, the limit
// idle       CPU time of 100 idle stores watching their documents, and with watching off
// history    CPU time and peak memory of `demo-cli purchase show` and `purchase buy` launches
//            with 10^3, 10^5 and 10^6 past purchases (--quick: 10^3 and 10^5); needs
//            --demo-cli PATH (run-benchmarks.sh builds it), skipped without
// launch     fresh processes that open 1, 20 and 100 persisted values and read them, against
//            UserDefaults and GRDB holding 20 (and 100): CPU and wall time from exec to the last read
// slider     a value changed 120 times a second for 5 s: CPU, fsyncs, and how late another
//            process sees the last value; ours, UserDefaults, GRDB FULL
// handles    1,000 persisted, watching value stores in one process: memory, descriptors, threads
//
// --quick shortens every row (fewer blocks and changes, a 10 s countdown and idle stretch) so
// the whole run takes well under a minute. The other processes are copies of this program,
// started as `cost-benchmarks child <role> …`.

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "child" {
    let role = Array(arguments.dropFirst())
    switch role.first {
    case "watch": exit(runWatcher(Array(role.dropFirst())))
    case "energy": exit(await runCountdown(Array(role.dropFirst())))
    case "idle": exit(runIdle(Array(role.dropFirst())))
    case "launch": exit(runLaunch(Array(role.dropFirst())))
    case "fsyncs": exit(runSyncCount(Array(role.dropFirst())))
    case "launch-stores": exit(runLaunchStores(Array(role.dropFirst())))
    case "slider": exit(runSlider(Array(role.dropFirst())))
    case "slider-watch": exit(runSliderWatch(Array(role.dropFirst())))
    case "handles": exit(runHandles(Array(role.dropFirst())))
    default: exit(2)
    }
}

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let quick = arguments.contains("--quick")
let rows = Set(
    option("--rows")?.split(separator: ",").map(String.init) ?? [
        "persisted", "latency", "energy", "idle", "history", "launch", "slider", "handles",
    ])
var results = CostResults()
results.pollIntervalMilliseconds = 50

do {
    if rows.contains("persisted") {
        note("persisted update…")
        let persisted = try measurePersistedUpdate(
            blocks: quick ? 10 : 30, perBlock: quick ? 10 : 30, syncWrites: quick ? 100 : 400)
        results.persisted = persisted
        for writer in PersistedWriter.allCases {
            guard let median = persisted.median(writer) else { continue }
            print(
                String(
                    format: "persisted %@: %.1f µs, ours ÷ it %.2f×, %@ syncs a write", writer.rawValue, median / 1_000,
                    persisted.ratio(to: writer) ?? .nan,
                    persisted.syncsPerWrite?[writer.rawValue].map { String(format: "%.2f", $0) } ?? "uncounted"))
        }
    }
    if rows.contains("latency") {
        let changes = quick ? 100 : 1_000
        note("cross-process latency, \(changes) changes, three watchers at once…")
        results.latency = try measureLatency(
            changes: changes, pollMilliseconds: Int(results.pollIntervalMilliseconds))
        for (path, latency) in results.latency.sorted(by: { $0.key < $1.key }) {
            print(
                String(
                    format: "latency %@: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d changes, %d missed)", path,
                    latency.p50, latency.p99, latency.max, latency.count, latency.missed))
        }
    }
    if rows.contains("energy") {
        let seconds = quick ? 10 : 60
        note("energy of a \(seconds) s countdown (three processes at once)…")
        results.energy = try measureEnergy(seconds: seconds)
        for (variant, energy) in results.energy.sorted(by: { $0.key < $1.key }) {
            print(
                String(
                    format: "energy %@: %.1f ms CPU, %d wake-ups, %d seconds shown", variant, energy.cpuMilliseconds,
                    energy.wakeUps, energy.shownSeconds))
        }
    }
    if rows.contains("idle") {
        let seconds = quick ? 10 : 30
        note("100 idle stores for \(seconds) s, watching and not (two processes at once)…")
        let idle = try measureIdle(stores: 100, seconds: seconds)
        results.idle = idle
        print(
            String(
                format: "idle: watching %.2f ms CPU, off %.2f ms CPU over %d s", idle.watchingCPUMilliseconds,
                idle.offCPUMilliseconds, idle.seconds))
    }
    if rows.contains("history") {
        if let demoCLI = option("--demo-cli") {
            let sizes = quick ? [1_000, 100_000] : [1_000, 100_000, 1_000_000]
            note("cost against history: demo-cli launches at \(sizes.map(String.init).joined(separator: ", ")) past purchases…")
            let history = try measureHistory(demoCLI: demoCLI, sizes: sizes, runs: quick ? 3 : 7)
            results.history = history
            for size in history.sizes {
                print(
                    String(
                        format:
                            "history %d: show %.1f ms CPU, buy %.1f ms CPU, peak %.1f MiB (compacted once in %.2f s, peak %.1f MiB)",
                        size.purchases, size.showCPUMilliseconds, size.buyCPUMilliseconds, size.peakMemoryMiB,
                        size.compactionSeconds, size.compactionPeakMemoryMiB ?? 0))
            }
        } else {
            note("cost against history skipped: give --demo-cli PATH")
        }
    }
    if rows.contains("launch") {
        let runs = quick ? 5 : 20
        note("launch: \(runs) launches each, 1/20/100 values ours, 20 and 100 the peers…")
        let launch = try measureLaunch(counts: [1, 20, 100], peerCounts: [20, 100], runs: runs)
        results.launch = launch
        for key in launch.cpuMilliseconds.keys.sorted() {
            print(
                String(
                    format: "launch %@: %.2f ms CPU, %.2f ms wall", key, launch.cpuMilliseconds[key] ?? .nan,
                    launch.wallMilliseconds[key] ?? .nan))
        }
    }
    if rows.contains("slider") {
        let seconds = quick ? 2 : 5
        note("slider: 120 changes a second for \(seconds) s, ours, UserDefaults, GRDB…")
        results.slider = try measureSlider(hertz: 120, seconds: seconds)
    }
    if rows.contains("handles") {
        note("handles: 1,000 persisted, watching stores…")
        let handles = try measureHandles(counts: [1, 10, 100, 1_000])
        results.handles = handles
        for step in handles.steps {
            print(
                String(
                    format: "handles %d stores: %.0f KiB resident, %d descriptors, %d threads", step.stores,
                    step.residentKiB, step.descriptors, step.threads))
        }
    }
} catch {
    note("\(error)")
    exit(1)
}

if let path = option("--json") {
    writeResults(results, to: path, program: "cost-benchmarks")
}
