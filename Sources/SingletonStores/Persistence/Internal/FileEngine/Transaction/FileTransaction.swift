#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

/// One transaction of ``FileStorage`` on the document of a key: lock → read → decide → write,
/// and again after a lost lock. The one place where a document file is changed: every load that
/// sets a bad document aside or rewrites a migrated one, every save and every update of a
/// ``FileStorage`` is one of these.
struct FileTransaction {
    let storage: FileStorage
    let key: String
    /// Whether to wait up to the storage's lock timeout for another writer (else give up at once).
    let waits: Bool

    /// Locks the document, reads it, lets `body` decide, and commits the decision before the
    /// lock is released; `nil` when the transaction does not wait and the lock is held.
    ///
    /// A transaction whose lock file was removed or replaced before it committed, or that found
    /// another writer still committing under the lock file it held before, is run again under
    /// the new lock, after a short pause (``LostLockRetry``).
    func run<Result>(
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        let paths = try storage.paths.entry(forKey: key, in: storage.folder)
        let file = paths.file
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        switch try runOnKeptDocument(paths, body) {
        case .committed(let commit): return commit
        case .busy: return nil
        case .fullWay: break
        }
        #endif
        let wait: FileLocks.LockWait = waits ? .upTo(storage.lockTimeout, document: file) : .never
        _ = try FileStorageFolder.prepare(
            storage.folder, path: storage.folderPath, creating: true, report: storage.reportNotice)
        var retry = LostLockRetry(limit: wait.limit)
        while true {
            var notices: [StorageNotice] = []
            let attempt = try FileLocks.withExclusiveLock(on: storage.lockURL(forKey: key), waiting: wait, keeping: storage.kept)
            {
                (lease: LockLease) throws(StorageError) -> WriteAttempt<DocumentCommit<Result>> in
                let document: OpenedDocument
                switch try OpenedDocument.open(file, storage: storage) {
                case .opened(let opened): document = opened
                case .busy:
                    // Another writer holds the document file: one whose lock file was removed or
                    // replaced, committing now. Named by its temporary file when it has one.
                    let writer = storage.sweepTemporaries(forKey: key, holding: lease).otherWriter
                    return .anotherWriterCommitting(
                        writer?.pid ?? LockHolder.processID(ofFileAt: file.filePath), temporary: writer?.temporary ?? file)
                case .replaced: return .lockLost
                }
                // Kept open for the next transaction when this one leaves the file at the path:
                // written in place, or not changed.
                var keepsDocument = false
                defer { document.close(keepingIn: keepsDocument ? storage.kept : nil, path: file.filePath) }
                let decision = try body(document.stored)
                let change = decision.change
                if let bytes = change.bytes {
                    if change.settingAside == nil, change.backup == nil, let slot = document.nextSlot(holding: bytes) {
                        let written = try storage.writeInPlace(slot, to: file, key: key, document: document, lease: lease)
                        // The descriptor that wrote is kept for the next transaction, in place of
                        // the one read (unless the process keeps too many).
                        if case .done = written { keepsDocument = !storage.kept.holdsWritable(file.filePath) }
                        return written.map { DocumentCommit(decision.result) }
                    }
                    // The rename way: a new file, for a new document, one in an earlier format, one
                    // set aside, migrated, or grown past its slot.
                    let new = try document.wholeFile(holding: bytes, file: file)
                    return try storage.write(
                        new.data, to: file, key: key, replacing: change.settingAside, backup: change.backup, lease: lease,
                        read: document.stamp, marking: new.marker, markingMoved: document.mayBeKeptForWriting,
                        notices: &notices
                    ).map { recovery in DocumentCommit(decision.result, keptAt: recovery?.keptFile) }
                }
                storage.removeStaleTemporaries(forKey: key, holding: lease)
                keepsDocument = change.settingAside == nil
                let kept = try change.settingAside.map { problem throws(StorageError) in
                    try storage.keepAside(file, key: key, problem: problem, markingMoved: document.mayBeKeptForWriting)
                        .keptFile
                }
                return .done(DocumentCommit(decision.result, keptAt: kept ?? nil))
            }
            notices.forEach(storage.reportNotice)
            switch attempt {
            case nil: return nil
            case .done(let commit)?: return commit
            case let lost?: guard try retry.pause(after: lost) else { return nil }
            }
        }
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
extension FileTransaction {
    /// How a transaction on a kept document ended.
    enum KeptRun<Result> {
        case committed(DocumentCommit<Result>)
        /// The transaction must not wait, and another thread of this process is ahead of it.
        case busy
        /// Run it the full way: nothing was committed.
        case fullWay
    }

    /// The transaction's way when the storage kept the document open for writing since it last
    /// wrote it in place (a long-lived store's next update): the document's own lock, one look
    /// at the descriptor, one read, and for a change one write of the older slot and one flush
    /// (see ``OpenedDocument/lockKept(_:file:storage:)`` for what the look checks). Nothing is
    /// opened, and the key's lock file is not taken: every writer of the document takes the
    /// document's lock, which is what keeps writers apart; the lock file orders the writers that
    /// open the path.
    ///
    /// Any other change — a document set aside, backed up, written the rename way — and a
    /// document that fails the look, are left to the full way, which runs `body` again.
    func runOnKeptDocument<Result>(
        _ paths: DocumentPaths.Entry, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> KeptRun<Result> {
        let (file, path, lockPath) = (paths.file, paths.filePath, paths.lockPath)
        guard storage.kept.holdsWritable(path) else { return .fullWay }
        // This process's writers of the key still take turns in its queue, as on the full way.
        var patience: LockPatience? = waits ? LockPatience(limit: storage.lockTimeout, document: file) : nil
        guard let ticket = LockQueue.shared.enter(lockPath, patience: &patience) else {
            guard let patience else { return .busy }
            throw FileLocks.timedOut(paths.lock, patience)
        }
        var served = false
        defer { LockQueue.shared.leave(lockPath, ticket: ticket, served: served) }
        guard let kept = storage.kept.takeWritable(path),
            let document = try OpenedDocument.lockKept(kept, file: file, storage: storage)
        else { return .fullWay }
        served = true
        var keeps = true
        defer { document.close(keepingIn: keeps ? storage.kept : nil, path: path) }
        let decision = try body(document.stored)
        let change = decision.change
        guard change.settingAside == nil, change.backup == nil else { return .fullWay }
        guard let bytes = change.bytes else { return .committed(DocumentCommit(decision.result)) }
        guard let slot = document.nextSlot(holding: bytes) else { return .fullWay }
        FaultInjection.reach(.willWrite(key))
        switch try storage.writeSlot(slot, through: document.writableDescriptor, file: file) {
        case .done:
            FaultInjection.reach(.didWrite(key))
            return .committed(DocumentCommit(decision.result))
        case .noRoom:
            // The full way removes what killed writers left and tries once more.
            keeps = false
            return .fullWay
        }
    }
}
#endif

extension FileStorage {
    /// Moves the bad document `file` aside and returns the report naming where it went.
    ///
    /// Call only while holding the key's lock.
    ///
    /// Only a document in the library's format (see ``DocumentFile/isInLibraryFormat(_:)``), or
    /// any file in a folder the library made for itself (``FileStorageFolder/isOwn(_:)``), is
    /// moved: another file in the document's place — the user's own `profile.json` in a home
    /// folder — is left where it is, and this throws ``StorageError/keepAsideFailed(file:reason:)``.
    ///
    /// With `markingMoved` — a two-slot file that could be written in place — the file is first
    /// marked as moved (``DocumentFile/markMoved(_:)``): another transaction may have kept a
    /// descriptor open for writing on it, which a move does not close.
    func keepAside(
        _ file: URL, key: String, problem: DocumentProblem, markingMoved: Bool = false
    ) throws(StorageError) -> StorageError {
        try checkMayKeepAside(file, problem: problem)
        let kept = try freeKeptName(for: file, key: key, problem: problem)
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if markingMoved { DocumentFile.markMoved(file.filePath) }
        #endif
        if let failure = DocumentFile.renameItem(file, to: kept) {
            throw .keepAsideFailed(file: file, reason: "\(problem.summary); moving it to \(kept.filePath) failed: \(failure)")
        }
        return problem.report(location: file, keptAt: kept)
    }

    /// Throws ``StorageError/keepAsideFailed(file:reason:)`` unless the bad document `file` may
    /// be moved aside: it is in the library's format, or the folder is the library's own.
    func checkMayKeepAside(_ file: URL, problem: DocumentProblem) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard DocumentFile.isInLibraryFormat(file) || FileStorageFolder.isOwn(folder) else {
            throw .keepAsideFailed(file: file, reason: "\(problem.summary), and \(Self.notOursReason)")
        }
        #endif
    }

    /// Writes `data` as the document of `key`. When the current document is bad (`problem`),
    /// it is moved aside and the new one put in its place as one step: if the write fails, the
    /// bad document is back where it was.
    ///
    /// Call only while holding the key's lock, `lease`. Just before committing, the lease is
    /// checked, and the document must still be the file that was read (`read`, the stamp
    /// of the file the read opened): when the lock file was removed or replaced, or another writer that
    /// locked the new one committed meanwhile, nothing is written and the result is
    /// ``WriteAttempt/lockLost``, for the caller to run its transaction again.
    ///
    /// - Returns: The report of the bad document that was moved aside, if any.
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` when nothing changed. In the one
    ///   case where the bad document was moved aside, the new one could not be put in its place
    ///   and the bad one could not be moved back, the report of the move is thrown instead.
    ///
    /// With `marker`, the write that fills slot 1 of a new two-slot file, that slot is written
    /// once the rename and the folder are flushed.
    ///
    /// With `backup`, the document as it was is first copied aside (see
    /// ``backUp(_:file:key:lease:)``), then replaced; a crash between the two leaves it in place
    /// beside its copy. The notice of a migration goes to `notices`, to be reported once the
    /// lock is released.
    ///
    /// `markingMoved` is for the bad document's move aside (see
    /// ``keepAside(_:key:problem:markingMoved:)``).
    func write(
        _ data: Data, to file: URL, key: String, replacing problem: DocumentProblem?, backup: DocumentBackup?,
        lease: LockLease, read: FileStamp?, marking marker: InPlaceWrite? = nil, markingMoved: Bool = false,
        notices: inout [StorageNotice]
    ) throws(StorageError) -> WriteAttempt<StorageError?> {
        FaultInjection.reach(.willWrite(key))
        // The temporary file stays locked by this writer until it is renamed or removed (see
        // ``FileLocks/writeLockedTemporary(_:atPath:for:)``); released on every way out.
        let (temporary, held) = try writeLockedTemporary(data, forKey: key, file: file, lease: lease)
        defer { FileLocks.releaseTemporary(held) }
        FaultInjection.reach(.temporaryWritten(key))
        // Another running writer's temporary file means it may be between its own checks and
        // its rename: it held a lock file that was removed or replaced after it locked it, and
        // this writer locked the new one. Each writer makes its temporary file before looking
        // for the others', so of two such writers at least one sees the other's and stands back
        // (the lease and stamp checks alone leave a gap between the check and the rename).
        // The same listing removes the temporary files of writers that are gone.
        let ownName = temporary.lastIndex(of: "/").map { String(temporary[temporary.index(after: $0)...]) }
        if let writer = sweepTemporaries(forKey: key, holding: lease, own: ownName).otherWriter {
            DocumentFile.remove(atPath: temporary)
            return .anotherWriterCommitting(writer.pid, temporary: writer.temporary)
        }
        guard lease.isStillHeld, FileStamp.of(file) == read else {
            DocumentFile.remove(atPath: temporary)
            return .lockLost
        }
        var copy: URL?
        if let backup {
            do { copy = try backUp(backup, file: file, key: key, lease: lease) } catch {
                DocumentFile.remove(atPath: temporary)
                throw error
            }
            FaultInjection.reach(.backedUp(key))
        }
        var recovery: StorageError?
        if let problem {
            do { recovery = try keepAside(file, key: key, problem: problem, markingMoved: markingMoved) } catch {
                DocumentFile.remove(atPath: temporary)
                throw error
            }
        }
        guard let failure = DocumentFile.renameItem(atPath: temporary, to: file, flushing: false) else {
            if let unflushed = DocumentFile.flushFolder(of: file) {
                // The new document is in place and others read it; only its durability is in
                // doubt. Reported as it is, never as saved.
                throw .notDurable(file: file, reason: "the folder could not be flushed (\(unflushed))")
            }
            // Its name durable, a two-slot file gets its slot 1 filled (the same envelope, as
            // the version before): until then, writes in place flush the folder too, as a
            // writer killed before the folder's flush would have left it unknown. A failure
            // here only costs that flush: the document is saved.
            if let marker { DocumentFile.fill(marker, of: held) }
            FaultInjection.reach(.didWrite(key))
            if let backup, let copy {
                notices.append(.documentMigrated(file: file, from: backup.from, to: backup.to, backup: copy))
            }
            return .done(recovery)
        }
        DocumentFile.remove(atPath: temporary)
        if let recovery, let kept = recovery.keptFile, DocumentFile.renameItem(kept, to: file) != nil {
            // The bad document could not be put back either: what is true on disk now is that
            // it was moved aside and there is no document, as the report says.
            throw recovery
        }
        throw .writeFailed(file: file, reason: failure)
    }

    /// Writes `data` to a fresh temporary file of `key`, held locked (see
    /// ``FileLocks/writeLockedTemporary(_:atPath:for:)``): its path and the descriptor to
    /// release once it is renamed or removed.
    ///
    /// Writers that were killed mid-write may have left what fills the disk: their files are
    /// removed by the listing after the temporary file is written, so when that could not be
    /// written, they are removed now and the write is tried once more if there were any. A new
    /// file that a sweeper removed before it could be locked is written again under a new name.
    func writeLockedTemporary(_ data: Data, forKey key: String, file: URL, lease: LockLease) throws(StorageError) -> (
        path: String, descriptor: Int32
    ) {
        var sweptForRoom = false
        var attempts = 0
        while true {
            let temporary = temporaryPath(forKey: key, lease: lease)
            do {
                if let descriptor = try FileLocks.writeLockedTemporary(data, atPath: temporary, for: file) {
                    return (temporary, descriptor)
                }
            } catch {
                guard !sweptForRoom, removeStaleTemporaries(forKey: key, holding: lease) > 0 else { throw error }
                sweptForRoom = true
                continue
            }
            attempts += 1
            if attempts >= 100 {
                throw .writeFailed(
                    file: file, reason: "its temporary files were removed by another process before they could be locked")
            }
        }
    }

    /// Copies the document as it was before a migration, `backup.original`, to
    /// `<key>~before-v<N>-<UTC time>.json` (`N` the version migrated to), durably: a temporary
    /// file, flushed, renamed. A copy with the same name stem and the same bytes, left by an
    /// attempt that crashed before replacing the document, is reused.
    ///
    /// Call only while holding the key's lock.
    ///
    /// - Returns: The copy.
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` naming the copy; the document is
    ///   untouched.
    func backUp(_ backup: DocumentBackup, file: URL, key: String, lease: LockLease) throws(StorageError) -> URL {
        let stem = "\(key)~before-v\(backup.to)-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.filePath)) ?? []
        for name in names.sorted() where name.hasPrefix(stem) && name.hasSuffix(".json") {
            let existing = folder.appending(path: name, directoryHint: .notDirectory)
            if case .bytes(let bytes)? = try? DocumentFile.contents(of: existing), bytes == backup.original {
                return existing
            }
        }
        let stamp = Self.timestamp(now())
        var target: URL?
        for attempt in 1...1_000 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let candidate = folder.appending(path: "\(stem)\(stamp)\(suffix).json", directoryHint: .notDirectory)
            if !DocumentFile.exists(candidate) {
                target = candidate
                break
            }
        }
        guard let target else {
            throw .writeFailed(file: file, reason: "too many copies are named \(stem)\(stamp)")
        }
        let (temporary, held) = try writeLockedTemporary(backup.original, forKey: key, file: target, lease: lease)
        defer { FileLocks.releaseTemporary(held) }
        if let failure = DocumentFile.renameItem(atPath: temporary, to: target) {
            DocumentFile.remove(atPath: temporary)
            throw .writeFailed(file: target, reason: failure)
        }
        return target
    }

    /// A name `<key>~<tag>-<UTC time>[-n].json` no file has, for keeping `file` aside.
    ///
    /// Call only while holding the key's lock (it makes the free-name check race-free: no
    /// other store's files contain `~` followed by this key's names).
    private func freeKeptName(for file: URL, key: String, problem: DocumentProblem) throws(StorageError) -> URL {
        let stamp = Self.timestamp(now())
        for attempt in 1...1_000 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let kept = folder.appending(path: "\(key)~\(problem.tag)-\(stamp)\(suffix).json", directoryHint: .notDirectory)
            if !DocumentFile.exists(kept) { return kept }
        }
        throw .keepAsideFailed(
            file: file, reason: "\(problem.summary); too many kept files are named \(key)~\(problem.tag)-\(stamp)")
    }

    /// `date` as `yyyyMMdd'T'HHmmss'Z'` in UTC, for file names.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0
        )
    }
}

/// How a write under a lock ended: done, or not committed because the lock file was removed
/// or replaced meanwhile, or because another writer (the process id, and its temporary file)
/// may be committing under the lock file it held before: run the transaction again, after
/// ``LostLockRetry/pause(after:)``.
enum WriteAttempt<Value> {
    case done(Value)
    case lockLost
    case anotherWriterCommitting(Int32?, temporary: URL)

    /// The same attempt with the done value transformed.
    func map<Other>(_ transform: (Value) -> Other) -> WriteAttempt<Other> {
        switch self {
        case .done(let value): .done(transform(value))
        case .lockLost: .lockLost
        case .anotherWriterCommitting(let pid, let temporary): .anotherWriterCommitting(pid, temporary: temporary)
        }
    }
}

/// The waits between attempts of a transaction that did not commit because its lock was lost
/// (see ``WriteAttempt``): short and growing, so that a writer still committing under a
/// removed lock file gets on, and bounded by the lock timeout, after which the writer that
/// stays in the way (stopped, say) is named with its temporary file.
struct LostLockRetry {
    private let limit: Duration?
    private let started = ContinuousClock.now
    private var pauseLength = Duration.milliseconds(1)

    /// Retries for a transaction that waits up to `limit` for its lock (`nil`: one that must
    /// not wait).
    init(limit: Duration?) {
        self.limit = limit
    }

    /// Waits before the next attempt when another writer is in the way (a lock file that was
    /// removed or replaced is locked again at once); `false` when the transaction must not wait
    /// for that writer (it gives up as when the lock is held).
    ///
    /// - Throws: ``StorageError/lockTimedOut(file:holder:waited:)``, naming the writer in the
    ///   way and its temporary file, once the lock timeout has passed since the first attempt.
    mutating func pause(after attempt: WriteAttempt<some Any>) throws(StorageError) -> Bool {
        guard case .anotherWriterCommitting(let pid, let temporary) = attempt else { return true }
        guard let limit else { return false }
        if ContinuousClock.now - started >= limit { throw .lockTimedOut(file: temporary, holder: pid, waited: limit) }
        let (seconds, attoseconds) = pauseLength.components
        usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        pauseLength = min(pauseLength * 2, .milliseconds(20))
        return true
    }
}
