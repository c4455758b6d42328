#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

extension FileStorage {
    /// The lock file that serialises writers of the store named `key` (already validated).
    func lockURL(forKey key: String) -> URL {
        (try? paths.entry(forKey: key, in: folder))?.lock ?? folder.appending(path: "\(key).lock", directoryHint: .notDirectory)
    }

    /// A fresh temporary file name for writing the document of `key` while holding `lease`:
    /// `<key>~w-<lock>-<id>.tmp`, `lock` the inode of the locked lock file in 16
    /// hexadecimal digits (left out where there is no locking) and `id` 32 (see
    /// ``TemporaryNames``).
    func temporaryURL(forKey key: String, lease: LockLease) -> URL {
        let name = "\(key)~" + TemporaryNames.writerPart(lockInode: lease.identity?.inode) + TemporaryNames.next() + ".tmp"
        return folder.appending(path: name, directoryHint: .notDirectory)
    }

    /// The path of a fresh temporary file for the document of `key`, as
    /// ``temporaryURL(forKey:lease:)`` names it, made from the document's cached path: making a
    /// `URL` cost a small write more than its JSON encoding's setup.
    func temporaryPath(forKey key: String, lease: LockLease) -> String {
        guard let entry = try? paths.entry(forKey: key, in: folder) else {
            return temporaryURL(forKey: key, lease: lease).filePath
        }
        var path = entry.temporaryPrefix
        path.reserveCapacity(path.utf8.count + 17 + 32 + 4)
        TemporaryNames.appendLockPart(inode: lease.identity?.inode, to: &path)
        TemporaryNames.appendNext(to: &path)
        path += ".tmp"
        return path
    }

    /// Why a bad file that is not in the library's format is left in place.
    static let notOursReason =
        "it is not in this app's data format, in a folder the app did not make for its data, so it may be "
        + "another program's file and was neither moved nor replaced"

    /// How old a temporary file of an older version (no process id in its name) must be to be
    /// removed as left over: 10 minutes.
    static let unnamedTemporaryAge: TimeInterval = 600

    /// Removes temporary files of `key` left by a writer that was killed mid-write.
    ///
    /// Call only while holding the key's lock, `lease`. A file this version names,
    /// `<key>~w-<lock>-<32 hex digits>.tmp`, is removed when its own lock is free (see
    /// ``DocumentFile/claimTemporary(atPath:)``): its writer held that lock for as long as the
    /// file existed, so it is gone, whatever process ids say. Older versions' files, which their
    /// writers did not lock, are judged as those versions did: `<key>~<pid>-<lock>-<32 hex
    /// digits>.tmp` is removed when `lock` is the inode of the lock file `lease` holds, or else
    /// when process `pid` cannot be writing it (see ``mayBeWriting(_:)``), as is
    /// `<key>~<pid>-<32 hex digits>.tmp`; `<key>~<32 hex digits>.tmp` only when it was last
    /// modified more than ``unnamedTemporaryAge`` ago. Nothing else is touched, so a live
    /// writer's file never is.
    ///
    /// - Returns: How many files were removed.
    @discardableResult
    func removeStaleTemporaries(forKey key: String, holding lease: LockLease) -> Int {
        sweepTemporaries(forKey: key, holding: lease).removed
    }

    /// One listing of the temporary files of `key`, while holding its lock `lease`: removes
    /// those of writers that are gone, as ``removeStaleTemporaries(forKey:holding:)`` says, and
    /// finds another running writer of `key` — a temporary file of this user other than
    /// `own` (the name of the one this writer holds) whose lock is held, or, of an older
    /// version, one named by a process `pid` that is not this one (the threads of this process take the lock in turn,
    /// whatever its file) and with a lock file other than the one `lease` holds (one whose lock
    /// file was removed or replaced after it locked it), written less than
    /// ``unnamedTemporaryAge`` ago, whose process may be writing it (see ``mayBeWriting(_:)``).
    /// An older file of a running process (its id reused after a crash, say) no longer stands
    /// in the way, nor, on Linux, one whose process holds no lock. See
    /// ``write(_:to:key:replacing:backup:lease:read:notices:)``.
    ///
    /// - Returns: How many files were removed, and another running writer's temporary file
    ///   with its process id where the system tells, if there is one.
    func sweepTemporaries(forKey key: String, holding lease: LockLease, own: String? = nil) -> (
        removed: Int, otherWriter: (pid: Int32?, temporary: URL)?
    ) {
        let prefix = "\(key)~"
        let held = lease.identity?.inode
        var removed = 0
        var otherWriter: (pid: Int32?, temporary: URL)?
        for name in TemporaryNames.candidates(inFolderAt: folderPath, prefix: prefix) {
            guard let writer = TemporaryNames.writer(ofTemporary: name, prefix: prefix) else { continue }
            switch writer {
            case .locked:
                if name == own { continue }
                let path = folderPath + (folderPath.hasSuffix("/") ? "" : "/") + name
                switch DocumentFile.claimTemporary(atPath: path) {
                case .removed: removed += 1
                case .notOurs: continue
                case .live:
                    // Locked: its writer is at work now, under a lock file other than the one
                    // `lease` holds (one that was removed or replaced after it locked it).
                    guard otherWriter == nil else { continue }
                    otherWriter = (
                        LockHolder.processID(ofFileAt: path), folder.appending(path: name, directoryHint: .notDirectory)
                    )
                }
            case .process(let pid, let lockInode):
                // This process's own: its current temporary file, or a live one (see above).
                if pid == TemporaryNames.processID { continue }
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                guard Self.isOwnPlainFile(file) else { continue }
                // Named with the lock file held now: a running writer of it would hold this
                // very lock, so its writer is gone, whatever process has its id today.
                let underTheHeldLock = held != nil && lockInode == held
                if !underTheHeldLock, Self.mayBeWriting(pid) {
                    guard otherWriter == nil, let modified = Self.modificationDate(of: file),
                        now().timeIntervalSince(modified) < Self.unnamedTemporaryAge
                    else { continue }
                    otherWriter = (pid, file)
                    continue
                }
                DocumentFile.remove(file)
                removed += 1
            case .invalidProcess:
                continue
            case .olderVersion:
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                guard Self.isOwnPlainFile(file), let modified = Self.modificationDate(of: file),
                    now().timeIntervalSince(modified) > Self.unnamedTemporaryAge
                else { continue }
                DocumentFile.remove(file)
                removed += 1
            }
        }
        return (removed, otherWriter)
    }

    /// Whether process `pid`, named by a temporary file, may be writing it now: it is running
    /// and, where the system tells (Linux), holds a `flock` lock. A writer holds its store's
    /// lock for as long as its temporary file exists, so a running process that holds no lock is
    /// not that file's writer: its id was reused after the writer was killed, or the file was
    /// not made by the library.
    static func mayBeWriting(_ pid: Int32) -> Bool {
        guard isRunning(pid) else { return false }
        #if os(Linux)
        guard pid != getpid() else { return true }
        return LockHolder.holdsLock(pid) ?? true
        #else
        return true
        #endif
    }

    /// Whether a process with id `pid` is running (or may be: one of another user counts).
    static func isRunning(_ pid: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
        #else
        return true
        #endif
    }

    /// Whether the file at `url` is a regular file of the current user with no other name
    /// (links are not followed): one a writer of this user may have left.
    static func isOwnPlainFile(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        guard lstat(url.filePath, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid() && info.st_nlink == 1
        #else
        return true
        #endif
    }

    /// When the file at `url` was last modified, without following a link.
    private static func modificationDate(of url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.filePath))?[.modificationDate] as? Date
    }

    /// The lock timeout `environment` sets, or the default.
    static func lockTimeout(in environment: [String: String]) -> Duration {
        lockTimeoutSetting(in: environment).timeout
    }

    /// The lock timeout `environment` sets — a number of seconds clamped to zero through
    /// ``maximumLockTimeout`` (`inf` is the maximum, as `1e308` is) — or the default; and the
    /// text of the variable when it was set to something else (empty, `abc`, `nan`), which is
    /// ignored.
    static func lockTimeoutSetting(in environment: [String: String]) -> (timeout: Duration, ignored: String?) {
        guard let text = environment[lockTimeoutEnvironmentVariable] else { return (defaultLockTimeout, nil) }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), !seconds.isNaN else {
            return (defaultLockTimeout, text)
        }
        let maximum = Double(maximumLockTimeout.components.seconds)
        return (.milliseconds(Int64((min(max(seconds, 0), maximum) * 1000).rounded())), nil)
    }

    /// Reports ``StorageNotice/lockTimeoutIgnored(value:)`` for `text` to `report`, once per
    /// process and text.
    static func reportIgnoredLockTimeout(_ text: String, report: @Sendable (StorageNotice) -> Void) {
        let first = reportedLockTimeouts.withLock { $0.insert(text).inserted }
        if first { report(.lockTimeoutIgnored(value: text)) }
    }

    /// The ignored lock-timeout texts reported so far in this process.
    private static let reportedLockTimeouts = Locked<Set<String>>([])

    /// `timeout` within zero and ``maximumLockTimeout``.
    static func clampedLockTimeout(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), maximumLockTimeout)
    }

    /// Moves the bad document `file` aside and returns the report naming where it went.
    ///
    /// Call only while holding the key's lock.
    ///
    /// Only a document in the library's format (see ``DocumentFile/isInLibraryFormat(_:)``), or
    /// any file in a folder the library made for itself (``FileStorageFolder/isOwn(_:)``), is
    /// moved: another file in the document's place — the user's own `profile.json` in a home
    /// folder — is left where it is, and this throws ``StorageError/keepAsideFailed(file:reason:)``.
    func keepAside(_ file: URL, key: String, problem: DocumentProblem) throws(StorageError) -> StorageError {
        try checkMayKeepAside(file, problem: problem)
        let kept = try freeKeptName(for: file, key: key, problem: problem)
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
    /// With `backup`, the document as it was is first copied aside (see
    /// ``backUp(_:file:key:lease:)``), then replaced; a crash between the two leaves it in place
    /// beside its copy. The notice of a migration goes to `notices`, to be reported once the
    /// lock is released.
    func write(
        _ data: Data, to file: URL, key: String, replacing problem: DocumentProblem?, backup: DocumentBackup?,
        lease: LockLease, read: FileStamp?, notices: inout [StorageNotice]
    ) throws(StorageError) -> WriteAttempt<StorageError?> {
        FaultInjection.reach(.willWrite(key))
        // The temporary file stays locked by this writer until it is renamed or removed (see
        // ``DocumentFile/writeLockedTemporary(_:atPath:for:)``); released on every way out.
        let (temporary, held) = try writeLockedTemporary(data, forKey: key, file: file, lease: lease)
        defer { DocumentFile.releaseTemporary(held) }
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
            do { recovery = try keepAside(file, key: key, problem: problem) } catch {
                DocumentFile.remove(atPath: temporary)
                throw error
            }
        }
        guard let failure = DocumentFile.renameItem(atPath: temporary, to: file) else {
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
    /// ``DocumentFile/writeLockedTemporary(_:atPath:for:)``): its path and the descriptor to
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
                if let descriptor = try DocumentFile.writeLockedTemporary(data, atPath: temporary, for: file) {
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
        defer { DocumentFile.releaseTemporary(held) }
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
