import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spike, not library code: the floor of a write that is durable with ONE sync — a
/// per-document journal that each change is appended to, checkpointed into the readable
/// document now and then — against which a rename-based write (temporary file, fsync, rename,
/// fsync of the folder: two syncs) is measured.
///
/// The journal is a file of `capacity` bytes, zero-filled and synced once when made, so that a
/// record written into it changes no size and no block allocation: `fdatasync` then flushes the
/// data block alone, as SQLite's WAL does when it reuses its file. A record is a sequence
/// number, a length, a checksum (FNV-1a) and the document's bytes; recovery would replay the
/// records in order while the sequence grows and the checksum holds. When the next record does
/// not fit, the newest document is checkpointed the rename way (temporary file, fsync, rename,
/// fsync of the folder) and the journal starts again at its beginning: that cost is spread over
/// the records the journal held (about 370 of 175 bytes in 64 KiB).
///
/// What it leaves out, and a real one would need: the lock other processes take, reading the
/// journal on load and after a change seen from another process (a reader must replay it, not
/// just read the document), and the crash-point suite.
public final class JournalSpike {
    private let journal: Int32
    private let folderDescriptor: Int32
    private let documentPath: String
    private let temporaryPath: String
    private let capacity: Int
    private var offset = 0
    private var sequence: UInt64 = 0
    private var newest = Data()
    /// Checkpoints made so far.
    public private(set) var checkpoints = 0

    /// Makes the journal `name.journal` (and later the document `name.json`) in `folder`.
    public init(folder: URL, name: String, capacity: Int = 64 * 1_024) throws {
        documentPath = folder.appending(path: "\(name).json").path
        temporaryPath = folder.appending(path: ".\(name).json.tmp").path
        self.capacity = capacity
        let path = folder.appending(path: "\(name).journal").path
        journal = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        folderDescriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard journal >= 0, folderDescriptor >= 0 else { throw JournalSpikeError("open: errno \(errno)") }
        let zeros = [UInt8](repeating: 0, count: capacity)
        guard zeros.withUnsafeBytes({ pwrite(journal, $0.baseAddress, capacity, 0) }) == capacity,
            fsync(journal) == 0, fsync(folderDescriptor) == 0
        else { throw JournalSpikeError("making the journal: errno \(errno)") }
    }

    deinit {
        close(journal)
        close(folderDescriptor)
    }

    /// Appends `document` as the newest version: one `pwrite` and one `fdatasync` (plus, once
    /// every few hundred records, a checkpoint).
    public func append(_ document: Data) throws {
        let recordSize = 16 + document.count
        guard recordSize <= capacity else { throw JournalSpikeError("record larger than the journal") }
        if offset + recordSize > capacity { try checkpoint() }
        sequence += 1
        var record = Data(capacity: recordSize)
        withUnsafeBytes(of: sequence.littleEndian) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(document.count).littleEndian) { record.append(contentsOf: $0) }
        withUnsafeBytes(of: Self.checksum(document).littleEndian) { record.append(contentsOf: $0) }
        record.append(document)
        let written = record.withUnsafeBytes { pwrite(journal, $0.baseAddress, recordSize, off_t(offset)) }
        guard written == recordSize, Self.dataSync(journal) == 0 else { throw JournalSpikeError("append: errno \(errno)") }
        offset += recordSize
        newest = document
    }

    /// Writes the newest document the rename way and starts the journal again.
    private func checkpoint() throws {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw JournalSpikeError("checkpoint open: errno \(errno)") }
        let written = newest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == newest.count, synced == 0, rename(temporaryPath, documentPath) == 0,
            fsync(folderDescriptor) == 0
        else { throw JournalSpikeError("checkpoint: errno \(errno)") }
        offset = 0
        checkpoints += 1
    }

    private static func dataSync(_ descriptor: Int32) -> Int32 {
        #if os(Linux)
        fdatasync(descriptor)
        #else
        fsync(descriptor)
        #endif
    }

    private static func checksum(_ bytes: Data) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}

/// A write the journal spike could not make.
public struct JournalSpikeError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
