import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cross-process latency: this process writes the profile `changes` times through its own
/// store (watching off); three child processes, one per path, report each change they see with
/// the instant they saw it. The latency of a change runs from the moment the writer calls
/// `update` to a child's report, on the system-wide monotonic clock. The writer waits for every
/// child's report (at most 2 s each) before the next change, so no two changes are seen as one,
/// and all three paths see the same writes in the same spells of the host's load.
///
/// Paths: `events` (a store that watches with `.automatic`: inotify), `poll` (a store polling
/// every `pollMilliseconds`), and the limit, `inotify` — a bare inotify watch of the folder that
/// reports the first event (a rename onto the document, or its close after a write in place)
/// after which the file holds the new revision, and does nothing else.
func measureLatency(changes: Int, pollMilliseconds: Int) throws -> [String: LatencyResult] {
    let folder = try makeFolder("latency")
    defer { try? FileManager.default.removeItem(at: folder) }
    let writer = PersistentStoreCore(
        key: profileKey, default: ProfileDocument(), storage: FileStorage(folder: folder), channel: .costProfile,
        center: NotificationCenter(), watching: .off)
    try writer.update { $0.nickname = "start" }  // the document exists before anyone watches

    let paths = ["inotify", "events", "poll"]
    var children: [Child] = []
    defer { for child in children { child.stop() } }
    for path in paths {
        let child = try Child(["watch", path, folder.path, String(pollMilliseconds)])
        children.append(child)
        guard let ready = child.nextLine(within: 30_000), ready.hasPrefix("ready") else {
            throw CostError("the \(path) watcher did not start")
        }
    }
    var latencies = Array(repeating: [Double](), count: paths.count)
    var missed = Array(repeating: 0, count: paths.count)
    for change in 1...max(changes, 1) {
        let began = monotonicNanoseconds()
        try writer.update { $0.revision = change }
        for (index, child) in children.enumerated() {
            // Reports of earlier changes that came late are skipped.
            var seenAt: Int64?
            while let line = child.nextLine(within: 2_000) {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let value = Int(fields[0]), let instant = Int64(fields[1]) else { continue }
                if value >= change {
                    seenAt = instant
                    break
                }
            }
            if let seenAt { latencies[index].append(Double(seenAt - began) / 1_000_000) } else { missed[index] += 1 }
        }
    }
    var results: [String: LatencyResult] = [:]
    for (index, path) in paths.enumerated() {
        results[path] = LatencyResult(milliseconds: latencies[index], missed: missed[index])
    }
    return results
}

/// The watcher child: `watch <events|poll|inotify> <folder> <poll interval ms>`. Prints
/// `ready`, then `<value> <monotonic ns>` for each change seen, until it is killed.
func runWatcher(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let milliseconds = Int(arguments[2]) else { return 2 }
    let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
    switch arguments[0] {
    case "events", "poll":
        let watching: StorageWatching = arguments[0] == "poll" ? .polling(every: .milliseconds(milliseconds)) : .automatic
        let store = PersistentStoreCore(
            key: profileKey, default: ProfileDocument(), storage: FileStorage(folder: folder), channel: .costProfile,
            center: NotificationCenter(), watching: watching)
        let token = store.observe { change in say("\(change.new.revision) \(monotonicNanoseconds())") }
        say("ready \(store.watchMechanism.map { "\($0)" } ?? "none")")
        while true { withExtendedLifetime(token) { _ = sleep(3_600) } }
    case "inotify":
        #if canImport(Glibc)
        return bareInotify(folder: folder)
        #else
        say("ready unsupported")
        return 1
        #endif
    default:
        return 2
    }
}

#if canImport(Glibc)
/// The limit: inotify on the folder with the events the store watches, and for each event on
/// the document — a rename onto it (`IN_MOVED_TO`) or its close after a write in place
/// (`IN_CLOSE_WRITE`, after the write's sync) — one read of the file, to report the newest
/// revision it holds (the largest `"revision"` in it: a two-slot document also holds the one
/// before) at the instant of the event that first showed it. No decoding, no store.
private func bareInotify(folder: URL) -> Int32 {
    let events = inotify_init1(Int32(IN_CLOEXEC))
    let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)
    guard events >= 0, inotify_add_watch(events, folder.path, mask) >= 0 else { return 1 }
    say("ready inotify")
    let name = Array("\(profileKey).json".utf8)
    let path = folder.appending(path: "\(profileKey).json").path
    var reported = Int.min
    var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) }
        let now = monotonicNanoseconds()
        guard count > 0 else { return 1 }
        var offset = 0
        var aboutTheDocument = false
        // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
        while offset + 16 <= count {
            let length = buffer[(offset + 12)..<(offset + 16)].enumerated()
                .reduce(0) { $0 | (Int($1.element) << (8 * $1.offset)) }
            let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
            if Array(nameBytes) == name { aboutTheDocument = true }
            offset += 16 + length
        }
        if aboutTheDocument, let revision = newestRevision(atPath: path), revision > reported {
            reported = revision
            say("\(revision) \(now)")
        }
    }
}

/// The largest number after a `"revision"` key in the file at `path` (JSON, spaces allowed
/// around the colon), read in one go; `nil` when there is none.
private func newestRevision(atPath path: String) -> Int? {
    guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
    let key = Array("\"revision\"".utf8)
    var newest: Int?
    var index = bytes.startIndex
    while let found = bytes[index...].firstRange(of: key) {
        var cursor = found.upperBound
        while cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: ":") {
            cursor += 1
        }
        var value = 0
        var digits = 0
        while cursor < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]), digits < 18 {
            value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            digits += 1
            cursor += 1
        }
        if digits > 0 { newest = max(newest ?? value, value) }
        index = cursor
    }
    return newest
}
#endif
