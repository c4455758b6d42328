import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory and handles per store: in a process of its own, `counts.last` persisted value
/// stores, each its own document and each watching it (`.automatic`, the default), made in
/// steps; at each step (and before the first store, with the values already in memory) the
/// process's resident memory (`/proc/self/statm`), open file descriptors (`/proc/self/fd`) and
/// threads (`/proc/self/task`).
func measureHandles(counts: [Int]) throws -> HandlesResult {
    let folder = try makeFolder("handles")
    defer { try? FileManager.default.removeItem(at: folder) }
    let largest = counts.max() ?? 0
    let storage = FileStorage(folder: folder)
    for index in 0..<largest {
        var document = ProfileDocument()
        document.revision = index
        try ValueStore(
            key: "value-\(index)", default: ProfileDocument(), storage: storage, center: NotificationCenter(),
            watching: .off
        ).set(document)
    }
    let child = try Child(["handles", folder.path] + counts.map(String.init))
    defer { child.stop() }
    var steps: [HandlesStep] = []
    while let line = child.nextLine(within: 120_000) {
        if line == "done" { break }
        let fields = line.split(separator: " ")
        guard fields.count == 5, fields[0] == "step", let stores = Int(fields[1]), let resident = Double(fields[2]),
            let descriptors = Int(fields[3]), let threads = Int(fields[4])
        else { throw CostError("the handles child reported '\(line)'") }
        steps.append(HandlesStep(stores: stores, residentKiB: resident, descriptors: descriptors, threads: threads))
    }
    guard steps.count == counts.count + 1 else { throw CostError("the handles child stopped early") }
    return HandlesResult(steps: steps)
}

/// The child: `handles <folder> <count>…`. Prints `step <stores> <resident KiB> <fds>
/// <threads>` before the first store and after each count, then `done`.
func runHandles(_ arguments: [String]) -> Int32 {
    guard let path = arguments.first else { return 2 }
    let counts = arguments.dropFirst().compactMap(Int.init)
    guard counts.count == arguments.count - 1, counts.allSatisfy({ (1...100_000).contains($0) }) else { return 2 }
    let folder = URL(fileURLWithPath: path, isDirectory: true)
    let storage = FileStorage(folder: folder)
    // The values themselves, in memory before the first store: what the stores add is beyond them.
    let values = (0..<(counts.max() ?? 0)).map { index in
        var document = ProfileDocument()
        document.revision = index
        return document
    }
    var stores: [ValueStore<ProfileDocument>] = []
    stores.reserveCapacity(values.count)
    func step() {
        // Let watchers started by the last stores settle.
        usleep(300_000)
        say(
            "step \(stores.count) \(residentKiB()) \(entries(in: "/proc/self/fd")) \(entries(in: "/proc/self/task"))")
    }
    step()
    var read = 0
    for count in counts.sorted() {
        while stores.count < count {
            let store = ValueStore(key: "value-\(stores.count)", default: ProfileDocument(), storage: storage)
            read &+= store.value.revision
            stores.append(store)
        }
        step()
    }
    withExtendedLifetime((values, stores, read)) {}
    say("done")
    return 0
}

/// This process's resident memory in KiB (`-1` where `/proc` is not there).
func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_024
}

/// The entries of a folder of `/proc` (`-1` where it is not there).
func entries(in folder: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
}
