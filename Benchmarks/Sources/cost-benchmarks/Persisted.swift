import BenchmarkSupport
import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Persisted update: one `PersistentStoreCore.update` of a profile-sized document (lock, read,
/// write a temporary file, fsync, rename, commit, post) against the limit — the same bytes
/// written by hand the same way (temporary file, fsync, rename), no lock, no JSON — and
/// `UserDefaults` set + `synchronize()`, what an app would use instead. Blocks of the three are
/// taken in turn, so that they share the disk's slow and quick spells.
func measurePersistedUpdate(blocks: Int, perBlock: Int) throws -> PersistedUpdateResult {
    let folder = try makeFolder("persisted")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = PersistentStoreCore(
        key: profileKey, default: ProfileDocument(), storage: FileStorage(folder: folder), channel: .costProfile,
        center: NotificationCenter(), watching: .off)
    try store.update { $0.nickname = "Mei" }
    // The limit writes exactly the bytes our store wrote.
    let bytes = try Data(contentsOf: folder.appending(path: "\(profileKey).json"))
    let target = folder.appending(path: "limit.json").path
    let temporary = folder.appending(path: ".limit.tmp").path

    let suite = "cost-benchmarks-\(getpid())"
    guard let defaults = UserDefaults(suiteName: suite) else { throw CostError("UserDefaults(suiteName:) gave nil") }
    defer { defaults.removePersistentDomain(forName: suite) }
    let encoder = JSONEncoder()
    var document = store.state

    func ours() throws { try store.update { $0.revision += 1 } }
    func limit() throws {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CostError("open \(temporary): errno \(errno)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, target) == 0 else {
            throw CostError("hand-written update failed: errno \(errno)")
        }
    }
    func userDefaults() throws {
        document.revision += 1
        defaults.set(try encoder.encode(document), forKey: profileKey)
        guard defaults.synchronize() else { throw CostError("UserDefaults.synchronize() failed") }
    }

    // One untimed block of each: first use of the code, the files made.
    _ = try nanosecondsPerOperation(perBlock, ours)
    _ = try nanosecondsPerOperation(perBlock, limit)
    _ = try nanosecondsPerOperation(perBlock, userDefaults)
    var oursTimes: [Double] = []
    var limitTimes: [Double] = []
    var defaultsTimes: [Double] = []
    for index in 0..<blocks {
        if index.isMultiple(of: 2) {
            oursTimes.append(try nanosecondsPerOperation(perBlock, ours))
            limitTimes.append(try nanosecondsPerOperation(perBlock, limit))
            defaultsTimes.append(try nanosecondsPerOperation(perBlock, userDefaults))
        } else {
            defaultsTimes.append(try nanosecondsPerOperation(perBlock, userDefaults))
            limitTimes.append(try nanosecondsPerOperation(perBlock, limit))
            oursTimes.append(try nanosecondsPerOperation(perBlock, ours))
        }
    }
    return PersistedUpdateResult(
        ours: PairedRatio(oursTimes: oursTimes, limitTimes: limitTimes),
        userDefaultsNanoseconds: PairedRatio.median(defaultsTimes), documentBytes: bytes.count)
}

/// A benchmark that could not run, and why.
struct CostError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
