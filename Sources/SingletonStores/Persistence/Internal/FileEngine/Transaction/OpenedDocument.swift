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
/// The document file's own lock (see ``FileLocks/tryLockDocument(_:)``) is held from the read
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
    /// How many bytes of a two-slot file were read, when it may be written in place; 0 when it
    /// must not be (another name links to it, or it is not a two-slot file).
    private var writableLength = 0
    /// For a descriptor open for writing too (one kept since this storage last wrote the document
    /// in place, see ``lockKept(_:file:storage:)``), the file's owner: it is kept as such again.
    private var writableOwner: UInt32?
    /// Whether the two-slot file read carries the mark of a document set aside
    /// (``SlotFile/isMarkedMoved(_:)``): a writer was killed between marking and moving it. Its
    /// path is written, never a descriptor kept open on it.
    private(set) var isMarkedMoved = false

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
        if let kept = storage.kept.take(file.filePath), let opening = try reopen(kept, file: file, storage: storage) {
            return opening
        }
        var stamp: FileStamp?
        let descriptor = DocumentFile.openDocument(file.filePath)
        if descriptor < 0 {
            let contents = try DocumentFile.openFailure(file, code: errno, stamp: &stamp)
            let (stored, slots) = storage.stored(contents, at: file)
            return .opened(OpenedDocument(descriptor: -1, stamp: stamp, stored: stored, slots: slots))
        }
        guard FileLocks.tryLockDocument(descriptor) else {
            FileLocks.unlockAndClose(descriptor)
            return .busy
        }
        let contents: FileContents
        var names = 0
        do {
            contents = try DocumentFile.contents(
                ofOpen: descriptor, url: file, limit: .max, mapsOver: FileStorage.mapsOver, stamp: &stamp, names: &names)
        } catch {
            FileLocks.unlockAndClose(descriptor)
            throw error
        }
        guard FileStamp.of(file) == stamp else {
            FileLocks.unlockAndClose(descriptor)
            return .replaced
        }
        return .opened(document(descriptor, stamp: stamp, contents: contents, names: names, file: file, storage: storage))
        #else
        var stamp: FileStamp?
        let (stored, slots) = try storage.stored(at: file, stamp: &stamp)
        return .opened(OpenedDocument(descriptor: -1, stamp: stamp, stored: stored, slots: slots))
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// The document read from `descriptor` (locked), open on the file `stamp`.
    private static func document(
        _ descriptor: Int32, stamp: FileStamp?, contents: FileContents, names: Int, file: URL, storage: FileStorage
    ) -> OpenedDocument {
        let (stored, slots) = storage.stored(contents, at: file)
        var document = OpenedDocument(descriptor: descriptor, stamp: stamp, stored: stored, slots: slots)
        // A file with another name too (a backup tool's hard link, say) is never written in
        // place, which would change the other name's bytes: it is replaced the rename way. (The
        // count read when it was opened; the write checks again on the descriptor that writes.)
        if slots != nil, case .bytes(let bytes) = contents {
            if names == 1 { document.writableLength = bytes.count }
            document.isMarkedMoved = SlotFile.isMarkedMoved(bytes)
        }
        return document
    }

    /// Locks and reads the document `file` through `kept`, the descriptor the storage kept open
    /// on it since its last transaction of the key (``KeptFiles``); `nil` when the path names
    /// another file now (or none): the kept descriptor is closed, and the caller opens the path.
    ///
    /// One look at the path, under the document's lock, stands for both looks a new descriptor
    /// takes (at the descriptor, and at the path after the read): it names the kept file, so it
    /// tells that file's owner, names and size. And the file stays what the path names while
    /// the lock is held: a writer that replaces a document holds the lock of the one it replaces.
    private static func reopen(
        _ kept: KeptFiles.KeptFile, file: URL, storage: FileStorage
    ) throws(StorageError) -> Opening? {
        let descriptor = kept.descriptor
        guard FileLocks.tryLockDocument(descriptor) else {
            FileLocks.unlockAndClose(descriptor)
            return .busy
        }
        guard let info = FileInfo.of(path: file.filePath), info.stamp == kept.stamp else {
            FileLocks.unlockAndClose(descriptor)
            return nil
        }
        let contents: FileContents
        do {
            contents = try DocumentFile.contents(
                ofOpen: descriptor, info: info, url: file, limit: .max, mapsOver: FileStorage.mapsOver)
        } catch {
            FileLocks.unlockAndClose(descriptor)
            throw error
        }
        var opened = document(descriptor, stamp: info.stamp, contents: contents, names: info.links, file: file, storage: storage)
        if kept.writable { opened.writableOwner = kept.owner }
        return .opened(opened)
    }

    /// Locks and reads the document `file` through `kept`, a descriptor open for reading and
    /// writing that the storage kept since it last wrote the document in place, with no look at
    /// the path: the way of a long-lived store's next update. `nil` when the document must be
    /// opened by its path instead (the transaction's full way); the kept descriptor is then
    /// kept again, unlocked, when only its lock was busy, and closed otherwise.
    ///
    /// The descriptor's own file is checked, by one look at it under the document's lock, and
    /// its header by the read. Every writer that replaces, removes or moves a document does so
    /// holding the lock of the file it replaces, so under that lock the file stays what the
    /// look found. The file must have one name: none means it was removed or replaced by
    /// another writer's rename; two, that it was linked (a backup tool's hard link, whose bytes
    /// a write in place would change). It must still belong to the user it belonged to, with
    /// mode `0600`, be as long as its header says, and not carry the mark of a document that
    /// another writer set aside (``SlotFile/isMarkedMoved(_:)``): a move keeps its one name.
    static func lockKept(_ kept: KeptFiles.KeptFile, file: URL, storage: FileStorage) throws(StorageError) -> OpenedDocument? {
        let descriptor = kept.descriptor
        if let code = FileFaults.injected(.flock) ?? (FileLocks.lockRetrying(descriptor, LOCK_EX | LOCK_NB) == 0 ? nil : errno) {
            let busy = code == EWOULDBLOCK || code == EAGAIN
            let keptAgain =
                busy
                && storage.kept.keep(file.filePath, descriptor: descriptor, stamp: kept.stamp, writable: true, owner: kept.owner)
            if !keptAgain { closeDescriptor(descriptor) }
            return nil
        }
        guard FileFaults.injected(.fstat) == nil, let info = FileInfo.of(descriptor: descriptor), info.stamp == kept.stamp,
            info.links == 1, info.isRegularFile, info.owner == kept.owner, info.mode & 0o777 == 0o600
        else {
            FileLocks.unlockAndClose(descriptor)
            return nil
        }
        let contents: FileContents
        do {
            contents = try DocumentFile.contents(
                ofOpen: descriptor, info: info, url: file, limit: .max, mapsOver: FileStorage.mapsOver, owner: kept.owner)
        } catch {
            FileLocks.unlockAndClose(descriptor)
            throw error
        }
        var opened = document(descriptor, stamp: info.stamp, contents: contents, names: info.links, file: file, storage: storage)
        opened.writableOwner = kept.owner
        guard opened.writableLength > 0, !opened.isMarkedMoved, opened.slots?.slots.count == 2 else {
            FileLocks.unlockAndClose(descriptor)
            return nil
        }
        return opened
    }
    #endif

    /// Lets go of the document file's lock and closes it; with `kept`, keeps it open instead for
    /// the next transaction of the key, as long as the process keeps few enough (``KeptFiles``).
    ///
    /// Keep it only when the transaction left the file at the path: one that replaced or moved
    /// it would keep a file that is gone (and, for a large one, its disk space).
    func close(keepingIn kept: KeptFiles? = nil, path: String = "") {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard descriptor >= 0 else { return }
        guard let kept, let stamp else { return FileLocks.unlockAndClose(descriptor) }
        FileLocks.unlock(descriptor)
        let keeps = kept.keep(
            path, descriptor: descriptor, stamp: stamp, writable: writableOwner != nil, owner: writableOwner ?? 0)
        if !keeps { closeDescriptor(descriptor) }
        #endif
    }

    /// Whether a transaction may have kept a descriptor open for writing on this file: a two-slot
    /// file with both slots whole and one name (see ``lockKept(_:file:storage:)``).
    var mayBeKeptForWriting: Bool { writableLength > 0 && slots?.slots.count == 2 }

    /// The descriptor, for a write in place through it: only one open for writing
    /// (``lockKept(_:file:storage:)``), else -1.
    var writableDescriptor: Int32 { writableOwner != nil ? descriptor : -1 }

    /// The write of `envelope` into the older slot, as the next version; `nil` when it must be
    /// written the rename way: no two-slot file was read, or one not both of whose slots are whole
    /// (made the rename way, its name maybe not durable yet: the rename is done again rather than
    /// trusting a flush of the folder after one failed), the envelope outgrows the slot or would
    /// fit slots a quarter of the size, or the sequence is at its end.
    func nextSlot(holding envelope: Data) -> InPlaceWrite? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let slots, slots.slots.count == 2, let current = slots.current, stamp != nil,
            current.sequence < UInt64.max, SlotFile.slotSize(for: envelope.count, current: slots.slotSize) == slots.slotSize
        else { return nil }
        let index = slots.older
        guard
            let bytes = SlotFile.slot(
                index, slotSize: slots.slotSize, sequence: current.sequence + 1, envelope: envelope)
        else { return nil }
        let offset = SlotFile.headerSize + index * slots.slotSize
        guard writableLength >= offset + slots.slotSize else { return nil }
        return InPlaceWrite(bytes: bytes, offset: offset)
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
        guard let slotSize = SlotFile.slotSize(for: envelope.count, current: slots?.slotSize),
            let data = SlotFile.file(envelope: envelope, sequence: sequence, slotSize: slotSize),
            let marker = SlotFile.slot(1, slotSize: slotSize, sequence: sequence - 1, envelope: envelope)
        else {
            throw .writeFailed(
                file: file,
                reason: "the document would hold \(envelope.count) bytes, more than a document may hold; store less in it")
        }
        return (data, InPlaceWrite(bytes: marker, offset: SlotFile.headerSize + slotSize))
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// Closes `descriptor` (the C library's `close`, which a type's own `close()` hides).
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
#endif

/// A write of one slot of a two-slot file in place: its bytes and offset.
struct InPlaceWrite {
    let bytes: [UInt8]
    let offset: Int
}

extension FileStorage {
    /// Writes `slot` into the two-slot document `file` read as `document`, in place: one
    /// positioned write of the older slot, then one flush of the file's data. The current slot
    /// is never touched, so a crash at any point leaves the version before or this one.
    ///
    /// Call only while holding the key's lock, `lease`, and the document's. When the lock file was
    /// removed or replaced, or another file is at the path, nothing is written and the result is
    /// ``WriteAttempt/lockLost``.
    ///
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` when the slot could not be written
    ///   whole: its checksum fails, and readers keep the current slot, untouched.
    ///   ``StorageError/notDurable(file:reason:)`` when it was written and readers may have read
    ///   it, but flushing it failed twice (the second time after writing it again): the new
    ///   version stands, unconfirmed, and is never taken back.
    ///
    /// The descriptor that wrote is kept open for the storage's next transaction of the key
    /// (``KeptFiles``), which may then write through it without opening the path
    /// (``OpenedDocument/lockKept(_:file:storage:)``).
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
        // The path still naming the file read is checked by the open below, and so is the one
        // name, on the descriptor that writes, as late as the write: a hard link made since the
        // document was opened would get the new bytes. The transaction is then run again, and
        // finds the document to be written the rename way.
        guard let stamp = document.stamp, lease.isStillHeld else { return .lockLost }
        let (descriptor, owner): (Int32, UInt32)
        switch DocumentFile.openForWritingInPlace(file.filePath, expected: stamp) {
        case .success(let opened): (descriptor, owner) = opened
        case .failure(.replaced), .failure(.anotherName): return .lockLost
        case .failure(.notWritten(let reason)): throw .writeFailed(file: file, reason: reason)
        }
        var keeps = false
        defer {
            let kept =
                keeps && !document.isMarkedMoved
                && self.kept.keep(file.filePath, descriptor: descriptor, stamp: stamp, writable: true, owner: owner)
            if !kept { closeDescriptor(descriptor) }
        }
        var written = try writeSlot(slot, through: descriptor, file: file)
        // On a copy-on-write file system a write in place takes new blocks: a full disk may have
        // been freed by removing the temporary files of writers that were killed (just now, or
        // by the listing above), and the write is tried once more.
        if written == .noRoom, removed + removeStaleTemporaries(forKey: key, holding: lease) > 0 {
            written = try writeSlot(slot, through: descriptor, file: file)
        }
        guard written == .done else { throw .writeFailed(file: file, reason: DocumentFile.describe(ENOSPC)) }
        FaultInjection.reach(.didWrite(key))
        keeps = true
        return .done(())
        #else
        return .lockLost
        #endif
    }

    /// How ``writeSlot(_:through:file:)`` ended when it did not throw.
    enum SlotWrite {
        /// Written and flushed.
        case done
        /// Not all of the slot could be written, for want of room (`ENOSPC`): readers keep the
        /// current slot, untouched.
        case noRoom
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Writes `slot` into the document `file` open for writing as `descriptor`, then flushes it:
    /// one positioned write and one flush of the file's data, the write in place of every way.
    ///
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` when the slot could not be written
    ///   whole for another reason than room: its checksum fails, and readers keep the current
    ///   slot, untouched. ``StorageError/notDurable(file:reason:)`` when it was written and
    ///   readers may have read it, but flushing it failed twice (the second time after writing
    ///   it again): the new version stands, unconfirmed, and is never taken back.
    func writeSlot(_ slot: InPlaceWrite, through descriptor: Int32, file: URL) throws(StorageError) -> SlotWrite {
        if let written = DocumentFile.writeAll(slot.bytes, at: slot.offset, to: descriptor) {
            if written == ENOSPC { return .noRoom }
            // Not all of the slot was written: its checksum can't hold, so readers keep reading
            // the current slot, which was not touched. The file reads as before.
            throw .writeFailed(file: file, reason: DocumentFile.describe(written))
        }
        // From here on readers may read the new version: it is never taken back. A failed flush
        // may have left the system's cache holding pages it no longer means to write, so the
        // slot is written again (the pages are written anew) and flushed once more; when that
        // fails too, the new version stands, unconfirmed on disk.
        guard let failure = DocumentFile.syncData(descriptor) else { return .done }
        guard
            let again = DocumentFile.writeAll(slot.bytes, at: slot.offset, to: descriptor).map(DocumentFile.describe)
                ?? DocumentFile.syncData(descriptor)
        else { return .done }
        throw .notDurable(
            file: file,
            reason: "flushing it failed (\(failure)), and writing and flushing it again failed too (\(again)); "
                + "the file holds the new version, which others now read")
    }
    #endif
}
