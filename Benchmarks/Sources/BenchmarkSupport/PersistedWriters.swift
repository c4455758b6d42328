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
    /// The one-sync limit, the floor of a durable small update: the store's bytes in a 4 KiB
    /// block, written with one `pwrite` into the older of two 4 KiB slots of a 12 KiB file
    /// written and synced once when made (a header block and two slots), then one `fdatasync`
    /// (`F_FULLFSYNC` on Apple platforms). No size, block allocation or name changes.
    case oneSyncLimit = "limit-one-sync"
    /// `UserDefaults` set + `synchronize()` of the encoded document.
    case userDefaults = "userdefaults"
    /// GRDB: a one-row upsert of the document as a blob, WAL, `synchronous = FULL`.
    case databaseFull = "grdb-full"
    /// GRDB `synchronous = FULL` as an app keeps it: the pool opened once and warmed past its
    /// first WAL checkpoint (writes until the WAL file has stopped growing, at least
    /// ``DocumentDatabase/warmUpWrites``) before it is timed; then a commit overwrites WAL
    /// blocks already allocated.
    case databaseFullLongLived = "grdb-full-long-lived"
    /// The same with `synchronous = NORMAL`.
    case databaseNormal = "grdb-normal"
    /// The spike: the document appended to a per-document journal, one `fdatasync`.
    case journal

    /// Whether this writer needs the peers (GRDB).
    public var needsPeers: Bool { self == .databaseFull || self == .databaseFullLongLived || self == .databaseNormal }

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
        case .oneSyncLimit:
            let slots = try OneSyncSlots(path: folder.appending(path: "limit.slots").path, folder: folder, bytes: storeBytes)
            return ({ try slots.write() }, {})
        case .databaseFull, .databaseFullLongLived, .databaseNormal:
            let path = folder.appending(path: "documents.sqlite").path
            let database = try DocumentDatabase(path: path, synchronous: self == .databaseNormal ? .normal : .full)
            let expected = self == .databaseNormal ? 1 : 2
            let level = try database.synchronousLevel()
            guard level == expected else { throw PersistedWriterError("PRAGMA synchronous is \(level), not \(expected)") }
            let write = {
                document.revision += 1
                try database.upsert(key: "profile", body: try encoder.encode(document))
            }
            try write()
            if self == .databaseFullLongLived { try database.warmUpPastCheckpoint(walPath: path + "-wal", write) }
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

    /// The document our store writes for the profile after its first change: its bytes as the
    /// storage reads them back (the envelope, whatever the file around it).
    public static func storeBytes() throws -> Data {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "persisted-bytes-\(getpid())-\(UUID().uuidString.prefix(8))", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileStorage(folder: folder)
        let store = ValueStore(
            key: "profile", default: ProfileDocument(), storage: storage, center: NotificationCenter(), watching: .off)
        try store.update { $0.nickname = "Mei" }
        guard let stored = try storage.read("profile") else { throw PersistedWriterError("the profile was not written") }
        return stored.bytes
    }
}

/// The one-sync limit's file (see ``PersistedWriter/oneSyncLimit``): a 4 KiB header block and two
/// 4 KiB slots, written whole and synced (with its folder) when made; each write is one `pwrite`
/// of a slot-sized block into the older slot and one data sync.
final class OneSyncSlots {
    static let slotSize = 4_096
    private let descriptor: Int32
    private var block: [UInt8]
    private var sequence: UInt64 = 0

    init(path: String, folder: URL, bytes: Data) throws {
        guard bytes.count + 8 <= Self.slotSize else { throw PersistedWriterError("document larger than a slot") }
        block = [UInt8](repeating: 0, count: Self.slotSize)
        block.replaceSubrange(8..<(8 + bytes.count), with: bytes)
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let folderDescriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        defer { if folderDescriptor >= 0 { close(folderDescriptor) } }
        guard descriptor >= 0, folderDescriptor >= 0 else { throw PersistedWriterError("open \(path): errno \(errno)") }
        let whole = [UInt8](repeating: 0, count: Self.slotSize) + block + block
        guard whole.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, whole.count, 0) }) == whole.count,
            fsync(descriptor) == 0, fsync(folderDescriptor) == 0
        else { throw PersistedWriterError("making the slots: errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// One update: the next sequence number and the document into the older slot, one data sync.
    func write() throws {
        sequence += 1
        withUnsafeBytes(of: sequence.littleEndian) { block.replaceSubrange(0..<8, with: $0) }
        let offset = off_t(Self.slotSize * (sequence.isMultiple(of: 2) ? 2 : 1))
        let written = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, Self.slotSize, offset) }
        guard written == Self.slotSize, dataSync(descriptor) == 0 else {
            throw PersistedWriterError("one-sync write failed: errno \(errno)")
        }
    }
}

/// `fdatasync`, or on Apple platforms `F_FULLFSYNC` (their `fsync` does not reach the medium).
@inline(__always)
private func dataSync(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    fcntl(descriptor, F_FULLFSYNC) == -1 ? -1 : 0
    #else
    fdatasync(descriptor)
    #endif
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
