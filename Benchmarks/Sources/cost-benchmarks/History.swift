import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Cost against history: whole `demo-cli` launches — `purchase show`, and one `purchase buy` —
// in data folders whose purchase ledger holds N generated past purchases. Each folder's ledger
// is written the way every earlier version wrote it (all entries), then one untimed
// `purchase buy` compacts it (settled entries fold into a checkpoint), as on a user's first
// launch of this version. The timed launches then alternate between the sizes, so that the
// host's slow spells fall on all of them; each launch's CPU time (user + system) and peak
// memory come from `wait4`.
//
// Each launch is started by a fresh copy of this program (`cost-benchmarks child launch …`),
// not by this process: `posix_spawn` starts the child in the parent's address space until it
// executes the program, and Linux counts that address space's peak towards the child's
// `ru_maxrss` — after generating a large ledger, this process's peak would hide the app's.
// The copy's own peak (about 23 MiB here, a Swift program with Foundation) is then the floor
// of what can be seen: the row records it (`/bin/true` launched the same way) so that a
// launch's peak can be told from the floor.

/// One finished launch: CPU milliseconds and peak resident memory in MiB.
struct LaunchUsage {
    var cpuMilliseconds: Double
    var peakMemoryMiB: Double
}

enum HistoryError: Error, CustomStringConvertible {
    case launchFailed(String, Int32)

    var description: String {
        switch self {
        case .launchFailed(let command, let status): "\(command) failed (status \(status))"
        }
    }
}

/// Runs `executable` with `arguments`, output discarded, and returns what it used.
func launch(_ executable: String, _ arguments: [String]) throws -> LaunchUsage {
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    var terminated = argv + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
    defer { environment.forEach { free($0) } }
    var environmentList = environment + [nil]
    let spawned = posix_spawn(&pid, executable, &actions, nil, &terminated, &environmentList)
    let command = ([executable] + arguments).joined(separator: " ")
    guard spawned == 0 else { throw HistoryError.launchFailed(command, spawned) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    // Exited normally with status 0: the low 7 bits (the signal) and the exit code are zero.
    guard status == 0 else { throw HistoryError.launchFailed(command, status) }
    func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
    #if canImport(Darwin)
    let peakBytes = Double(usage.ru_maxrss)  // bytes on Darwin
    #else
    let peakBytes = Double(usage.ru_maxrss) * 1_024  // KiB on Linux
    #endif
    return LaunchUsage(
        cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
        peakMemoryMiB: peakBytes / 1_048_576)
}

/// `cost-benchmarks child launch EXECUTABLE ARGUMENTS…`: launches the program and prints its
/// CPU milliseconds and peak memory in MiB on one line.
func runLaunch(_ arguments: [String]) -> Int32 {
    guard let executable = arguments.first else { return 2 }
    do {
        let usage = try launch(executable, Array(arguments.dropFirst()))
        say("\(usage.cpuMilliseconds) \(usage.peakMemoryMiB)")
        return 0
    } catch {
        note("\(error)")
        return 1
    }
}

/// Launches `executable` from a fresh copy of this program (see above) and returns its usage.
func launchFromCopy(_ executable: String, _ arguments: [String]) throws -> LaunchUsage {
    let child = try Child(["launch", executable] + arguments)
    defer { child.stop() }
    let command = ([executable] + arguments).joined(separator: " ")
    guard let line = child.nextLine(within: 600_000) else { throw HistoryError.launchFailed(command, -1) }
    let figures = line.split(separator: " ").compactMap { Double($0) }
    guard figures.count == 2 else { throw HistoryError.launchFailed(command, -1) }
    return LaunchUsage(cpuMilliseconds: figures[0], peakMemoryMiB: figures[1])
}

/// Writes a purchase ledger of `count` past purchases into `folder`, uncompacted: boost items
/// bought one at a time and spent, a premium day now and then, a minute apart.
func writeLedger(purchases count: Int, to folder: URL) throws {
    let start = 1_600_000_000
    let formatter = ISO8601DateFormatter()
    var text = #"{"formatVersion": 2, "value": {"entries": ["#
    text.reserveCapacity(count * 90 + 64)
    for index in 0..<count {
        let date = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(start + index * 60)))
        if index > 0 { text += "," }
        if index.isMultiple(of: 50) {
            text += #"{"date": "\#(date)", "days": 1, "kind": "premiumBought", "receiptID": "p-\#(index)"}"#
        } else if index.isMultiple(of: 2) {
            text += #"{"date": "\#(date)", "kind": "boostItemUsed"}"#
        } else {
            text += #"{"count": 1, "date": "\#(date)", "kind": "boostItemsBought", "receiptID": "r-\#(index)"}"#
        }
    }
    text += "]}}"
    try Data(text.utf8).write(to: folder.appending(path: "purchases.json"))
}

/// The median of `values` (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// Times `runs` launches of `purchase show` and of `purchase buy` at each size, alternating.
func measureHistory(demoCLI: String, sizes: [Int], runs: Int) throws -> HistoryResult {
    var folders: [URL] = []
    var compaction: [Double] = []
    var compactionPeak: [Double] = []
    defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
    for size in sizes {
        let folder = try makeFolder("history-\(size)")
        folders.append(folder)
        try writeLedger(purchases: size, to: folder)
        let start = monotonicNanoseconds()
        let compacting = try launchFromCopy(demoCLI, ["purchase", "buy", "--data-dir", folder.path])
        compaction.append(Double(monotonicNanoseconds() - start) / 1e9)
        compactionPeak.append(compacting.peakMemoryMiB)
        note("history: \(size) past purchases written and compacted in \(String(format: "%.2f", compaction.last ?? 0)) s")
    }
    var show = Array(repeating: [Double](), count: sizes.count)
    var buy = Array(repeating: [Double](), count: sizes.count)
    var peak = Array(repeating: 0.0, count: sizes.count)
    for round in 0..<runs {
        let order = round.isMultiple(of: 2) ? Array(sizes.indices) : Array(sizes.indices.reversed())
        for index in order {
            let path = folders[index].path
            let shown = try launchFromCopy(demoCLI, ["purchase", "show", "--data-dir", path])
            let bought = try launchFromCopy(demoCLI, ["purchase", "buy", "--data-dir", path])
            show[index].append(shown.cpuMilliseconds)
            buy[index].append(bought.cpuMilliseconds)
            peak[index] = max(peak[index], shown.peakMemoryMiB, bought.peakMemoryMiB)
        }
    }
    let results = sizes.indices.map { index in
        HistorySize(
            purchases: sizes[index], showCPUMilliseconds: median(show[index]), buyCPUMilliseconds: median(buy[index]),
            peakMemoryMiB: peak[index], compactionSeconds: compaction[index],
            compactionPeakMemoryMiB: compactionPeak[index])
    }
    let floor = try launchFromCopy("/bin/true", []).peakMemoryMiB
    return HistoryResult(sizes: results, runs: runs, launcherFloorMiB: floor)
}
