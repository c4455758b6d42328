import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A dragged slider: a persisted value changed `hertz` times a second for `seconds`, paced by
/// the real clock, in a writer process of its own; another process follows the value. Per
/// variant: the writer's CPU time over the drag, how late the other process saw the last value
/// (from the writer's call that set it), and — with `strace` on the PATH, in a second run of
/// the writer alone under `strace -f -c` — its fsync and fdatasync calls.
///
/// - `ours`: `ValueStore.update` on `FileStorage`; the other process is a `ValueStore` watching
///   the same document (`.automatic`: file events) with an observer.
/// - `ours-coalesced`: `ValueStore.set` on a store whose writes are coalesced within
///   ``coalescingWindow``; the writer waits for the trailing write before it reads its CPU time
///   (it never flushes), and the other process is the same watching store as for `ours`.
/// - `userdefaults`: `UserDefaults` set + `synchronize()`; the other process reads the same
///   suite every 5 ms (`synchronize()`, then the value).
/// - `grdb-full`: GRDB upserts, WAL, `synchronous = FULL`, on a database the writer has just
///   opened; the other process reads the row every 5 ms.
/// - `grdb-full-long-lived`: the same on a database the writer opened and warmed past its
///   first WAL checkpoint before the drag (as an app that keeps its database open has it); its
///   syncs are those of the drag (a run of the warm-up alone is subtracted).
///
/// The variants run one after the other, each with its own folder.
func measureSlider(hertz: Int, seconds: Int) throws -> SliderResult {
    var variants = ["ours", "ours-coalesced", "userdefaults"]
    if DocumentDatabase.isBuilt { variants += ["grdb-full", "grdb-full-long-lived"] }
    let strace = executableOnPath("strace")
    var results: [String: SliderVariant] = [:]
    for variant in variants {
        let folder = try makeFolder("slider-\(variant)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "cost-benchmarks-slider-\(getpid())"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        // The value exists before anyone follows it.
        try SliderValue(variant: variant, folder: folder, suite: suite, watching: .off).set(0)
        let watcher = try Child(["slider-watch", variant == "ours-coalesced" ? "ours" : variant, folder.path, suite])
        defer { watcher.stop() }
        guard let ready = watcher.nextLine(within: 30_000), ready.hasPrefix("ready") else {
            throw CostError("the \(variant) slider watcher did not start")
        }
        let writer = try Child(["slider", variant, String(hertz), String(seconds), folder.path, suite])
        defer { writer.stop() }
        guard let line = writer.nextLine(within: Int32(clamping: (seconds + 61) * 1_000)) else {
            throw CostError("the \(variant) slider reported nothing")
        }
        let fields = line.split(separator: " ")
        guard fields.count == 5, fields[0] == "result", let cpu = Double(fields[1]), let lastCall = Int64(fields[2]),
            let writes = Int(fields[3]), let lastValue = Int(fields[4])
        else { throw CostError("the \(variant) slider reported '\(line)'") }
        var seenAt: Int64?
        var seen = 0
        while let report = watcher.nextLine(within: 2_000) {
            let parts = report.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[0]), let instant = Int64(parts[1]) else { continue }
            seen += 1
            if value == lastValue {
                seenAt = instant
                break
            }
        }
        var syncs: Int?
        if let strace {
            func traced(seconds: Int) throws -> Int {
                let summary = folder.appending(path: "strace.txt").path
                let executable = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
                _ = try launch(
                    strace,
                    [
                        "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", summary, executable, "child", "slider", variant,
                        String(hertz), String(seconds), folder.path, suite,
                    ])
                return try syncCalls(inSummary: String(contentsOfFile: summary, encoding: .utf8))
            }
            // The long-lived database's warm-up syncs too: a run of the warm-up alone (a drag of
            // no seconds) is subtracted.
            syncs = try traced(seconds: seconds) - (variant == "grdb-full-long-lived" ? traced(seconds: 0) : 0)
        }
        results[variant] = SliderVariant(
            cpuMilliseconds: cpu, writes: writes, lastSeenMilliseconds: seenAt.map { Double($0 - lastCall) / 1_000_000 },
            changesSeen: seen, syncs: syncs)
        note(
            "slider \(variant): \(String(format: "%.1f", cpu)) ms CPU, \(writes) writes, last seen "
                + (seenAt.map { String(format: "%.2f ms", Double($0 - lastCall) / 1_000_000) } ?? "never")
                + " later, \(seen) changes seen, \(syncs.map(String.init) ?? "uncounted") syncs")
    }
    return SliderResult(hertz: hertz, seconds: seconds, variants: results)
}

/// The coalescing window of the `ours-coalesced` variant.
let coalescingWindow = Duration.milliseconds(500)

/// The slider's value in one of the variants.
struct SliderValue {
    let set: (Int) throws -> Void
    let get: () throws -> Int?
    let keep: AnyObject?
    /// How long the writer waits after the last set for a write it left pending (never a flush:
    /// the row measures the trailing write the policy makes by itself).
    var settle = Duration.zero

    init(variant: String, folder: URL, suite: String, watching: StorageWatching, warmsUp: Bool = false) throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        switch variant {
        case "ours":
            let store = ValueStore(
                key: "slider", default: ProfileDocument(), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: watching)
            set = { value in try store.update { $0.revision = value } }
            get = { store.value.revision }
            keep = store
        case "ours-coalesced":
            let store = ValueStore(
                key: "slider", default: ProfileDocument(), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: watching, writePolicy: .coalescing(within: coalescingWindow))
            set = { value in
                var document = ProfileDocument()
                document.revision = value
                try store.set(document)
            }
            get = { store.value.revision }
            keep = store
            settle = coalescingWindow + .milliseconds(500)
        case "userdefaults":
            guard let defaults = UserDefaults(suiteName: suite) else { throw CostError("UserDefaults(suiteName:) gave nil") }
            set = { value in
                var document = ProfileDocument()
                document.revision = value
                defaults.set(try encoder.encode(document), forKey: "slider")
                guard defaults.synchronize() else { throw CostError("UserDefaults.synchronize() failed") }
            }
            get = {
                _ = defaults.synchronize()
                return try defaults.data(forKey: "slider").map { try decoder.decode(ProfileDocument.self, from: $0).revision }
            }
            keep = defaults
        case "grdb-full", "grdb-full-long-lived":
            let path = folder.appending(path: "slider.sqlite").path
            let database = try DocumentDatabase(path: path, synchronous: .full)
            let write = { (value: Int) throws in
                var document = ProfileDocument()
                document.revision = value
                try database.upsert(key: "slider", body: try encoder.encode(document))
            }
            set = write
            // The writer warms its database before the drag (its follower reads it as it is).
            if variant == "grdb-full-long-lived", warmsUp {
                var warm = 0
                try database.warmUpPastCheckpoint(walPath: path + "-wal") {
                    warm -= 1
                    try write(warm)
                }
            }
            get = {
                try database.read(keys: ["slider"]).first.flatMap { $0 }
                    .map { try decoder.decode(ProfileDocument.self, from: $0).revision }
            }
            keep = database
        default:
            throw CostError("no slider variant \(variant)")
        }
    }
}

/// The writer: `slider <variant> <hertz> <seconds> <folder> <suite>`. Sets the values 1, 2, …
/// at each tick (none with 0 seconds: the set-up alone, for strace); prints `result <cpu ms> <monotonic ns of the last call> <writes> <last value>`.
func runSlider(_ arguments: [String]) -> Int32 {
    guard arguments.count == 5, let hertz = Int(arguments[1]), (1...1_000).contains(hertz),
        let seconds = Int(arguments[2]), (0...600).contains(seconds)
    else { return 2 }
    do {
        let value = try SliderValue(
            variant: arguments[0], folder: URL(fileURLWithPath: arguments[3], isDirectory: true), suite: arguments[4],
            watching: .off, warmsUp: true)
        let period = 1_000_000_000 / Int64(hertz)
        let ticks = hertz * seconds
        let before = ResourceUsage.now
        let start = monotonicNanoseconds()
        var lastCall: Int64 = 0
        for tick in stride(from: 1, through: ticks, by: 1) {
            let due = start + Int64(tick) * period
            let left = due - monotonicNanoseconds()
            if left > 0 {
                var pause = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                nanosleep(&pause, nil)
            }
            lastCall = monotonicNanoseconds()
            try value.set(tick)
        }
        if value.settle > .zero {
            let (whole, attoseconds) = value.settle.components
            var pause = timespec(tv_sec: Int(whole), tv_nsec: Int(attoseconds / 1_000_000_000))
            nanosleep(&pause, nil)
        }
        let used = ResourceUsage.now - before
        withExtendedLifetime(value.keep) {}
        say(String(format: "result %.3f %lld %d %d", used.cpuMilliseconds, lastCall, ticks, ticks))
        return 0
    } catch {
        note("slider: \(error)")
        return 1
    }
}

/// The other process: `slider-watch <variant> <folder> <suite>`. Prints `ready`, then
/// `<value> <monotonic ns>` for each new value it sees, until it is killed.
func runSliderWatch(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3 else { return 2 }
    let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
    do {
        if arguments[0] == "ours" {
            let store = ValueStore(
                key: "slider", default: ProfileDocument(), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .automatic)
            let token = store.observe { change in say("\(change.new.revision) \(monotonicNanoseconds())") }
            say("ready")
            while true { withExtendedLifetime(token) { _ = sleep(3_600) } }
        }
        // The peers have no cross-process notification here: the other process reads every 5 ms.
        let value = try SliderValue(variant: arguments[0], folder: folder, suite: arguments[2], watching: .off)
        say("ready")
        var last = try value.get()
        while true {
            usleep(5_000)
            let now = try value.get()
            if let now, now != last {
                say("\(now) \(monotonicNanoseconds())")
                last = now
            }
        }
    } catch {
        note("slider-watch: \(error)")
        return 1
    }
}
