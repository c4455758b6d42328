import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Persisted update: one `ValueStore.update` of a profile-sized document (lock, read, write a
/// temporary file, fsync, rename, fsync of the folder, commit, post) against the same
/// durability by hand (temporary file, fsync, rename, fsync of the folder), round 3's limit
/// (no folder fsync), `UserDefaults` set + `synchronize()`, GRDB upserts of the document as a
/// blob (WAL, `synchronous = FULL` and `NORMAL`) and the journal spike (one `fdatasync`).
/// Blocks of all of them are taken in turn, each block starting with the next writer, so that
/// they share the disk's slow and quick spells. Writers the build lacks (GRDB without the
/// peers) are left out.
///
/// With `strace` on the PATH, each writer is also run alone under `strace -f -c` twice (0 and
/// `syncWrites` writes after the same set-up) to count its fsync and fdatasync calls per write.
func measurePersistedUpdate(blocks: Int, perBlock: Int, syncWrites: Int) throws -> PersistedUpdateResult {
    let writers = PersistedWriter.allCases.filter { !$0.needsPeers || DocumentDatabase.isBuilt }
    var folders: [URL] = []
    defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
    var made: [(PersistedWriter, write: () throws -> Void, finish: () -> Void)] = []
    defer { for writer in made { writer.finish() } }
    for writer in writers {
        let folder = try makeFolder("persisted-\(writer.rawValue)")
        folders.append(folder)
        let (write, finish) = try writer.make(folder: folder)
        made.append((writer, write, finish))
    }
    // One untimed block of each: first use of the code, the files made.
    for writer in made { _ = try nanosecondsPerOperation(perBlock, writer.write) }
    var times: [String: [Double]] = [:]
    for block in 0..<blocks {
        for index in 0..<made.count {
            let writer = made[(block + index) % made.count]
            times[writer.0.rawValue, default: []].append(try nanosecondsPerOperation(perBlock, writer.write))
        }
    }
    var syncs: [String: Double] = [:]
    if let strace = executableOnPath("strace") {
        for writer in writers {
            if let perWrite = try? countSyncs(strace: strace, writer: writer, writes: syncWrites) {
                syncs[writer.rawValue] = perWrite
            }
        }
    }
    let ours = times[PersistedWriter.ours.rawValue] ?? []
    return PersistedUpdateResult(
        ours: PairedRatio(oursTimes: ours, limitTimes: times[PersistedWriter.durableLimit.rawValue] ?? []),
        userDefaultsNanoseconds: PairedRatio.median(times[PersistedWriter.userDefaults.rawValue] ?? []),
        documentBytes: try PersistedWriter.storeBytes().count, blocks: times, syncsPerWrite: syncs)
}

/// The fsync and fdatasync calls per write of `writer`: the calls of `writes` writes after its
/// set-up, less those of the set-up alone, each counted by `strace -f -c` in a process of its own.
func countSyncs(strace: String, writer: PersistedWriter, writes: Int) throws -> Double {
    func calls(_ count: Int) throws -> Int {
        let folder = try makeFolder("syncs-\(writer.rawValue)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = folder.appending(path: "strace.txt").path
        let executable = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
        _ = try launch(
            strace,
            [
                "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", summary, executable, "child", "fsyncs", writer.rawValue,
                String(count), folder.path,
            ])
        return try syncCalls(inSummary: String(contentsOfFile: summary, encoding: .utf8))
    }
    let setUp = try calls(0)
    let all = try calls(writes)
    return Double(all - setUp) / Double(max(writes, 1))
}

/// The calls of fsync and fdatasync in an `strace -c` summary (columns: % time, seconds,
/// usecs/call, calls, [errors,] syscall).
func syncCalls(inSummary summary: String) throws -> Int {
    var total = 0
    for line in summary.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard let name = fields.last, name == "fsync" || name == "fdatasync", fields.count >= 5,
            let calls = Int(fields[3])
        else { continue }
        total += calls
    }
    return total
}

/// The child that strace counts: `fsyncs <writer> <writes> <folder>`. Makes the writer in the
/// folder (its set-up includes one first write), then writes `writes` times.
func runSyncCount(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let writer = PersistedWriter(rawValue: arguments[0]), let writes = Int(arguments[1]),
        (0...100_000).contains(writes)
    else { return 2 }
    do {
        let (write, finish) = try writer.make(folder: URL(fileURLWithPath: arguments[2], isDirectory: true))
        defer { finish() }
        for _ in 0..<writes { try write() }
        return 0
    } catch {
        note("fsyncs \(writer.rawValue): \(error)")
        return 1
    }
}

/// The full path of `name` in a folder of `PATH`, if it is executable there.
func executableOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// A benchmark that could not run, and why.
struct CostError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
