import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Launch: a fresh process that opens N persisted values and reads every one, timed from
/// `exec` to the last read — CPU time (user + system, from the child's own `getrusage` at the
/// last read) and wall time (from just before `posix_spawn` to the last read, on the
/// system-wide monotonic clock). The launches of every variant are taken in turn.
///
/// - `ours`: N `ValueStore`s (1, 20 and 100: what each store adds to a launch) on one `FileStorage`, each its own document, watching as the
///   store does by default (`.automatic`), each `value` read.
/// - `userdefaults`: one `UserDefaults` suite holding the N documents (encoded as data), each
///   read and decoded.
/// - `grdb`: one GRDB `DatabasePool` (WAL), the N documents in one table, read in one read
///   transaction and decoded.
/// - `none`: the same program, reading nothing: what any launch of it costs.
///
/// The child is this program (`cost-benchmarks child launch-stores …`), the same binary for
/// every variant, so what its size and its libraries cost is the same for all.
func measureLaunch(counts: [Int], peerCounts: [Int], runs: Int) throws -> LaunchResult {
    let folder = try makeFolder("launch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let suite = "cost-benchmarks-launch-\(getpid())"
    guard let defaults = UserDefaults(suiteName: suite) else { throw CostError("UserDefaults(suiteName:) gave nil") }
    defer { defaults.removePersistentDomain(forName: suite) }
    let largest = max(counts.max() ?? 0, peerCounts.max() ?? 0)
    let database: DocumentDatabase? =
        if DocumentDatabase.isBuilt {
            try DocumentDatabase(path: folder.appending(path: "values.sqlite").path, synchronous: .full)
        } else {
            nil
        }
    let storage = FileStorage(folder: folder)
    let encoder = JSONEncoder()
    for index in 0..<largest {
        var document = ProfileDocument()
        document.revision = index
        let store = ValueStore(
            key: "value-\(index)", default: ProfileDocument(), storage: storage, center: NotificationCenter(),
            watching: .off)
        try store.set(document)
        let body = try encoder.encode(document)
        defaults.set(body, forKey: "value-\(index)")
        try database?.upsert(key: "value-\(index)", body: body)
    }
    guard defaults.synchronize() else { throw CostError("UserDefaults.synchronize() failed") }

    var variants: [(name: String, count: Int)] = [("none", 0)] + counts.map { ("ours", $0) }
    variants += peerCounts.map { ("userdefaults", $0) }
    if database != nil { variants += peerCounts.map { ("grdb", $0) } }
    let executable = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
    let resultPath = folder.appending(path: "launch-result.txt").path
    var cpu: [String: [Double]] = [:]
    var wall: [String: [Double]] = [:]
    // One untimed round first: the binary and the documents in the page cache.
    for round in -1..<runs {
        for offset in variants.indices {
            let variant = variants[(offset + max(round, 0)) % variants.count]
            unlink(resultPath)
            let start = monotonicNanoseconds()
            _ = try launch(
                executable,
                ["child", "launch-stores", variant.name, String(variant.count), folder.path, suite, resultPath])
            let fields = try String(contentsOfFile: resultPath, encoding: .utf8).split(separator: " ")
            guard fields.count == 2, let cpuMilliseconds = Double(fields[0]), let lastRead = Int64(fields[1]) else {
                throw CostError("launch-stores \(variant.name) reported nothing")
            }
            guard round >= 0 else { continue }
            let key = "\(variant.name)-\(variant.count)"
            cpu[key, default: []].append(cpuMilliseconds)
            wall[key, default: []].append(Double(lastRead - start) / 1_000_000)
        }
    }
    return LaunchResult(
        runs: runs, peerCount: peerCounts.first ?? 0, counts: counts,
        cpuMilliseconds: cpu.mapValues { PairedRatio.median($0) }, wallMilliseconds: wall.mapValues { PairedRatio.median($0) })
}

/// The launch child: `launch-stores <variant> <count> <folder> <suite> <result path>`. Reads
/// the values, then writes `<cpu ms> <monotonic ns at the last read>` to the result path.
func runLaunchStores(_ arguments: [String]) -> Int32 {
    guard arguments.count == 5, let count = Int(arguments[1]), (0...10_000).contains(count) else { return 2 }
    let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
    let keys = (0..<count).map { "value-\($0)" }
    var checksum = 0
    var keep: [AnyObject] = []
    do {
        switch arguments[0] {
        case "none":
            break
        case "ours":
            let storage = FileStorage(folder: folder)
            for key in keys {
                let store = ValueStore(key: key, default: ProfileDocument(), storage: storage)
                checksum &+= store.value.revision
                keep.append(store)
            }
        case "userdefaults":
            guard let defaults = UserDefaults(suiteName: arguments[3]) else { return 1 }
            let decoder = JSONDecoder()
            for key in keys {
                guard let body = defaults.data(forKey: key) else { return 1 }
                checksum &+= try decoder.decode(ProfileDocument.self, from: body).revision
            }
            keep.append(defaults)
        case "grdb":
            let database = try DocumentDatabase(path: folder.appending(path: "values.sqlite").path, synchronous: .full)
            let decoder = JSONDecoder()
            for body in try database.read(keys: keys) {
                guard let body else { return 1 }
                checksum &+= try decoder.decode(ProfileDocument.self, from: body).revision
            }
            keep.append(database)
        default:
            return 2
        }
    } catch {
        note("launch-stores: \(error)")
        return 1
    }
    let lastRead = monotonicNanoseconds()
    let used = ResourceUsage.now
    // Every value was read: the revisions written were 0..<count.
    guard checksum == count * (count - 1) / 2 else {
        note("launch-stores: read \(checksum), expected \(count * (count - 1) / 2)")
        return 1
    }
    do {
        try Data("\(used.cpuMilliseconds) \(lastRead)".utf8).write(to: URL(fileURLWithPath: arguments[4]))
    } catch {
        return 1
    }
    withExtendedLifetime(keep) {}
    return 0
}
