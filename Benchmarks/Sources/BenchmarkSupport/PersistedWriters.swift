import Foundation
import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ways the persisted rows write one profile-sized document, each in a folder of its own:
/// timed by `cost-benchmarks`, and run alone (`cost-benchmarks child fsyncs …`) under `strace`
/// to count their syncs.
public enum PersistedWriter: String, CaseIterable, Sendable {
    /// Ours: `ValueStore.update` on `FileStorage` (lock, read, temporary file, fsync, rename,
    /// fsync of the folder, post).
    case ours
    /// The same durability by hand: temporary file, fsync, rename, fsync of the folder.
    case durableLimit = "limit-durable"
    /// Round 3's limit, kept for reference: temporary file, fsync, rename — no folder fsync.
    case limit
    /// `UserDefaults` set + `synchronize()` of the encoded document.
    case userDefaults = "userdefaults"
    /// GRDB: a one-row upsert of the document as a blob, WAL, `synchronous = FULL`.
    case databaseFull = "grdb-full"
    /// The same with `synchronous = NORMAL`.
    case databaseNormal = "grdb-normal"
    /// The spike: the document appended to a per-document journal, one `fdatasync`.
    case journal

    /// Whether this writer needs the peers (GRDB).
    public var needsPeers: Bool { self == .databaseFull || self == .databaseNormal }

    /// Makes the writer in `folder` (which it fills), after one first write; returns the write
    /// to time and what to call when done. Each write changes the document's revision.
    public func make(folder: URL) throws -> (write: () throws -> Void, finish: () -> Void) {
        let encoder = JSONEncoder()
        var document = ProfileDocument()
        // The limits write exactly the bytes our store writes for the profile.
        let storeBytes = try Self.storeBytes()
        switch self {
        case .ours:
            let store = ValueStore(
                key: "profile", default: ProfileDocument(), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            try store.update { $0.nickname = "Mei" }
            return ({ try store.update { $0.revision += 1 } }, {})
        case .durableLimit, .limit:
            let target = folder.appending(path: "limit.json").path
            let temporary = folder.appending(path: ".limit.tmp").path
            let folderDescriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
            guard folderDescriptor >= 0 else { throw PersistedWriterError("open \(folder.path): errno \(errno)") }
            let syncsFolder = self == .durableLimit
            let write = {
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { throw PersistedWriterError("open \(temporary): errno \(errno)") }
                let written = storeBytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                let synced = fsync(descriptor)
                close(descriptor)
                guard written == storeBytes.count, synced == 0, rename(temporary, target) == 0 else {
                    throw PersistedWriterError("hand-written update failed: errno \(errno)")
                }
                if syncsFolder, fsync(folderDescriptor) != 0 {
                    throw PersistedWriterError("folder fsync failed: errno \(errno)")
                }
            }
            try write()
            return (write, { close(folderDescriptor) })
        case .userDefaults:
            let suite = "cost-benchmarks-\(getpid())-\(UUID().uuidString.prefix(8))"
            guard let defaults = UserDefaults(suiteName: suite) else {
                throw PersistedWriterError("UserDefaults(suiteName:) gave nil")
            }
            let write = {
                document.revision += 1
                defaults.set(try encoder.encode(document), forKey: "profile")
                guard defaults.synchronize() else { throw PersistedWriterError("UserDefaults.synchronize() failed") }
            }
            try write()
            return (write, { defaults.removePersistentDomain(forName: suite) })
        case .databaseFull, .databaseNormal:
            let database = try DocumentDatabase(
                path: folder.appending(path: "documents.sqlite").path,
                synchronous: self == .databaseFull ? .full : .normal)
            let expected = self == .databaseFull ? 2 : 1
            let level = try database.synchronousLevel()
            guard level == expected else { throw PersistedWriterError("PRAGMA synchronous is \(level), not \(expected)") }
            let write = {
                document.revision += 1
                try database.upsert(key: "profile", body: try encoder.encode(document))
            }
            try write()
            return (write, {})
        case .journal:
            let journal = try JournalSpike(folder: folder, name: "profile")
            let write = {
                document.revision += 1
                try journal.append(try encoder.encode(document))
            }
            try write()
            return (write, {})
        }
    }

    /// The bytes our store writes for the profile after its first change.
    public static func storeBytes() throws -> Data {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "persisted-bytes-\(getpid())-\(UUID().uuidString.prefix(8))", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = ValueStore(
            key: "profile", default: ProfileDocument(), storage: FileStorage(folder: folder),
            center: NotificationCenter(), watching: .off)
        try store.update { $0.nickname = "Mei" }
        return try Data(contentsOf: folder.appending(path: "profile.json"))
    }
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// A persisted write that failed, and why.
public struct PersistedWriterError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
