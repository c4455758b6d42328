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
}
