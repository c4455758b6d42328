#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

/// The document of a transaction: opened, locked and read under the key's lock file, held open
/// until the transaction commits.
///
/// The document file's own lock (see ``DocumentFile/tryLockDocument(_:)``) is held from the read
/// to the commit, so that two writers that each hold a lock file — one removed or replaced
/// meanwhile — never write the same file in place at once.
struct OpenedDocument {
    /// The descriptor read from and locked; -1 when there is no file to open.
    private let descriptor: Int32
    /// The file read: its device and inode (`nil` when there was none).
    let stamp: FileStamp?
    /// What was read, for the transaction's body.
    let stored: StoredBytes?
    /// The slots of a two-slot file; `nil` for a plain document, a damaged one, or none.
    let slots: SlotFile.Contents?
    /// The bytes of a two-slot file as read, to put a slot back as it was after a failed write;
    /// empty when the file must not be written in place.
    private var fileBytes = Data()

    /// How opening went.
    enum Opening {
        case opened(OpenedDocument)
        /// Another writer holds the document file's lock: it may be committing under a lock
        /// file that was removed or replaced.
        case busy
        /// Another file was put at the path between the open and the lock: read again.
        case replaced
    }

    /// Opens, locks and reads the document `file` of `storage`.
    ///
    /// - Throws: When the file is there but could not be read (it is left as it is), including
    ///   when it is a link or belongs to another user.
    static func open(_ file: URL, storage: FileStorage) throws(StorageError) -> Opening {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var stamp: FileStamp?
        let descriptor = DocumentFile.openDocument(file.filePath)
        if descriptor < 0 {
            let contents = try DocumentFile.openFailure(file, code: errno, stamp: &stamp)
            let (stored, slots) = storage.stored(contents, at: file)
            return .opened(OpenedDocument(descriptor: -1, stamp: stamp, stored: stored, slots: slots))
        }
        guard DocumentFile.tryLockDocument(descriptor) else {
            DocumentFile.unlockAndClose(descriptor)
            return .busy
        }
        let contents: FileContents
        do {
            contents = try DocumentFile.contents(
                ofOpen: descriptor, url: file, limit: .max, mapsOver: FileStorage.mapsOver, stamp: &stamp)
        } catch {
            DocumentFile.unlockAndClose(descriptor)
            throw error
        }
        guard FileStamp.of(file) == stamp else {
            DocumentFile.unlockAndClose(descriptor)
            return .replaced
        }
        let (stored, slots) = storage.stored(contents, at: file)
        var document = OpenedDocument(descriptor: descriptor, stamp: stamp, stored: stored, slots: slots)
        // A file with another name too (a backup tool's hard link, say) is never written in
        // place, which would change the other name's bytes: it is replaced the rename way.
        var info = stat()
        if slots != nil, case .bytes(let bytes) = contents, fstat(descriptor, &info) == 0, info.st_nlink == 1 {
            document.fileBytes = bytes
        }
        return .opened(document)
        #else
        var stamp: FileStamp?
        let (stored, slots) = try storage.stored(at: file, stamp: &stamp)
        return .opened(OpenedDocument(descriptor: -1, stamp: stamp, stored: stored, slots: slots))
        #endif
    }

    /// Lets go of the document file's lock and closes it.
    func close() {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if descriptor >= 0 { DocumentFile.unlockAndClose(descriptor) }
        #endif
    }

    /// The write of `envelope` into the older slot, as the next version; `nil` when it must be
    /// written the rename way: no two-slot file was read, the envelope outgrows the slot, or the
    /// sequence is at its end.
    func nextSlot(holding envelope: Data) -> InPlaceWrite? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let slots, let current = slots.current, stamp != nil, current.sequence < UInt64.max else { return nil }
        let index = slots.older
        guard
            let bytes = SlotFile.slot(
                index, slotSize: slots.slotSize, sequence: current.sequence + 1, envelope: envelope)
        else { return nil }
        let offset = SlotFile.headerSize + index * slots.slotSize
        guard fileBytes.count >= offset + slots.slotSize else { return nil }
        let start = fileBytes.startIndex + offset
        return InPlaceWrite(
            bytes: bytes, offset: offset, previous: [UInt8](fileBytes[start..<(start + slots.slotSize)]),
            flushesFolder: slots.slots.count < 2)
        #else
        return nil
        #endif
    }

    /// The whole new file holding `envelope`, for the rename way: the next version in slot 0,
    /// with slots as large as the current ones, doubled until it fits; and the write that fills
    /// its slot 1 once the file's name is durable (see ``FileStorage/write(_:to:key:replacing:backup:lease:read:marking:notices:)``).
    ///
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` for an envelope longer than the
    ///   largest slot (1 GiB).
    func wholeFile(holding envelope: Data, file: URL) throws(StorageError) -> (data: Data, marker: InPlaceWrite) {
        // At least 2: slot 1 is then filled with the same envelope as the version before.
        let sequence = slots?.current.map { $0.sequence < UInt64.max ? max($0.sequence + 1, 2) : 2 } ?? 2
        guard let slotSize = SlotFile.slotSize(fitting: envelope.count, from: slots?.slotSize ?? SlotFile.smallestSlot),
            let data = SlotFile.file(envelope: envelope, sequence: sequence, slotSize: slotSize),
            let marker = SlotFile.slot(1, slotSize: slotSize, sequence: sequence - 1, envelope: envelope)
        else {
            throw .writeFailed(
                file: file,
                reason: "the document would hold \(envelope.count) bytes, more than a document may hold; store less in it")
        }
        return (
            data,
            InPlaceWrite(
                bytes: marker, offset: SlotFile.headerSize + slotSize, previous: SlotFile.emptySlot(1, slotSize: slotSize),
                flushesFolder: false)
        )
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// Closes `descriptor` (the C library's `close`, which a type's own `close()` hides).
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
#endif

/// A write of one slot of a two-slot file in place: its bytes and offset, and the slot's bytes
/// before it, written back when the write or its flush fails.
struct InPlaceWrite {
    let bytes: [UInt8]
    let offset: Int
    let previous: [UInt8]
    /// Whether the folder is flushed after the file: the slot written was never whole (see
    /// ``FileStorage/writeInPlace(_:to:key:document:lease:)``).
    let flushesFolder: Bool
}

extension FileStorage {
    /// Writes `slot` into the two-slot document `file` read as `document`, in place: one
    /// positioned write of the older slot, then one flush of the file's data. The current slot
    /// is never touched, so a crash at any point leaves the version before or this one.
    ///
    /// The first writes into a file made the rename way — while its other slot was never whole —
    /// also flush the folder: that rename's own flush may have failed (it was then reported as
    /// not durable), and a write acknowledged on a name a power cut may undo would be lost.
    ///
    /// Call only while holding the key's lock, `lease`, and the document's. When the lock file was
    /// removed or replaced, or another file is at the path, nothing is written and the result is
    /// ``WriteAttempt/lockLost``.
    ///
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` when the write or its flush failed:
    ///   the slot is then put back as it was and flushed, so that the file is as it was and
    ///   readers keep reading the version before (the system may keep the unflushed bytes in its
    ///   cache). ``StorageError/notDurable(file:reason:)`` when even that failed.
    func writeInPlace(
        _ slot: InPlaceWrite, to file: URL, key: String, document: OpenedDocument, lease: LockLease
    ) throws(StorageError) -> WriteAttempt<Void> {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        FaultInjection.reach(.willWrite(key))
        // Another writer's temporary file, added since the folder was last listed, means it may
        // be committing the rename way under a lock file that was removed or replaced: it is
        // let finish first. The same listing removes the temporary files of killed writers.
        var removed = 0
        if TemporaryListings.mayHaveChanged(folderPath, key: key) {
            let sweep = sweepTemporaries(forKey: key, holding: lease)
            if let writer = sweep.otherWriter { return .anotherWriterCommitting(writer.pid, temporary: writer.temporary) }
            removed = sweep.removed
        }
        // The path still naming the file read is checked by the open below.
        guard let stamp = document.stamp, lease.isStillHeld else { return .lockLost }
        let descriptor: Int32
        switch DocumentFile.openForWritingInPlace(file.filePath, expected: stamp) {
        case .success(let opened): descriptor = opened
        case .failure(.replaced): return .lockLost
        case .failure(.notWritten(let reason)): throw .writeFailed(file: file, reason: reason)
        }
        defer { closeDescriptor(descriptor) }
        var wroteAny = false
        var written = DocumentFile.writeAll(slot.bytes, at: slot.offset, to: descriptor, wroteAny: &wroteAny)
        // On a copy-on-write file system a write in place takes new blocks: a full disk may have
        // been freed by removing the temporary files of writers that were killed (just now, or
        // by the listing above), and the write is tried once more.
        if written == ENOSPC, removed + removeStaleTemporaries(forKey: key, holding: lease) > 0 {
            written = DocumentFile.writeAll(slot.bytes, at: slot.offset, to: descriptor, wroteAny: &wroteAny)
        }
        if written == nil { wroteAny = true }
        // A file whose other slot was never written (made the rename way, whose flush of the
        // folder may have failed) has a name that may not be durable: the folder is flushed too,
        // until a write in place has filled both slots.
        var failure = written.map(DocumentFile.describe) ?? DocumentFile.syncData(descriptor)
        if failure == nil, slot.flushesFolder, let unflushed = DocumentFile.flushFolder(of: file) {
            failure = "the folder could not be flushed (\(unflushed))"
        }
        guard let failure else {
            FaultInjection.reach(.didWrite(key))
            return .done(())
        }
        // The system may keep unflushed bytes in its cache, where readers would take them: the
        // slot is put back as it was, and flushed, before the failure is reported.
        var restored = false
        if wroteAny,
            let restoring = DocumentFile.writeAll(slot.previous, at: slot.offset, to: descriptor, wroteAny: &restored)
                .map(DocumentFile.describe) ?? DocumentFile.syncData(descriptor)
        {
            throw .notDurable(
                file: file,
                reason: "\(failure); putting the slot back failed too (\(restoring)), so the file holds the new version "
                    + "or the one before it")
        }
        throw .writeFailed(file: file, reason: failure)
        #else
        return .lockLost
        #endif
    }
}
