import BenchmarkSupport
import Foundation
import SingletonStores

/// Idle watcher: the CPU time of `stores` persisted stores that watch their documents for
/// `seconds` with nothing changing, against the same stores with watching off, each in a
/// process of its own, the two at the same time.
func measureIdle(stores: Int, seconds: Int) throws -> IdleResult {
    var figures: [String: Double] = [:]
    var folders: [URL] = []
    defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
    var children: [(String, Child)] = []
    defer { for (_, child) in children { child.stop() } }
    for mode in ["watching", "off"] {
        let folder = try makeFolder("idle-\(mode)")
        folders.append(folder)
        children.append((mode, try Child(["idle", mode, String(stores), String(seconds), folder.path])))
    }
    for (mode, child) in children {
        guard let line = child.nextLine(within: Int32(clamping: (seconds + 60) * 1_000)) else {
            throw CostError("the idle \(mode) stores reported nothing")
        }
        let fields = line.split(separator: " ")
        guard fields.count == 2, fields[0] == "result", let cpu = Double(fields[1]) else {
            throw CostError("the idle \(mode) stores reported '\(line)'")
        }
        figures[mode] = cpu
    }
    return IdleResult(
        stores: stores, seconds: seconds, watchingCPUMilliseconds: figures["watching"] ?? .nan,
        offCPUMilliseconds: figures["off"] ?? .nan)
}

/// The idle child: `idle <watching|off> <stores> <seconds> <folder>`. Makes the stores, each
/// with a document on disk, then sleeps; prints `result <cpu ms>` for the sleep.
func runIdle(_ arguments: [String]) -> Int32 {
    guard arguments.count == 4, let count = Int(arguments[1]), (1...10_000).contains(count),
        let seconds = UInt32(arguments[2]), (1...3_600).contains(seconds)
    else { return 2 }
    let folder = URL(fileURLWithPath: arguments[3], isDirectory: true)
    let watching: StorageWatching = arguments[0] == "watching" ? .automatic : .off
    let storage = FileStorage(folder: folder)
    let stores = (0..<count).map { index in
        PersistentStoreCore(
            key: "profile-\(index)", default: ProfileDocument(), storage: storage, channel: .costProfile,
            center: NotificationCenter(), watching: watching)
    }
    do {
        for store in stores { try store.update { $0.nickname = "idle" } }
    } catch {
        note("idle: \(error)")
        return 1
    }
    // Let the watcher settle on the writes just made before measuring.
    sleep(1)
    let before = ResourceUsage.now
    sleep(seconds)
    let used = ResourceUsage.now - before
    withExtendedLifetime(stores) {}
    say(String(format: "result %.3f", used.cpuMilliseconds))
    return 0
}
