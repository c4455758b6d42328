#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension FileLocks {
    /// Writes `data` to the new file `temporary` (permissions `0600`), as
    /// ``DocumentFile.writeTemporary(_:atPath:for:)`` does, holding an exclusive `flock` lock on it from its
    /// creation: the lock proves to any other process that its writer is at work (see
    /// ``claimTemporary(atPath:)``), whoever and wherever that writer is. The caller keeps the
    /// returned descriptor open — and the lock held — until the file is renamed or removed,
    /// then closes it with ``releaseTemporary(_:)``.
    ///
    /// - Returns: The descriptor holding the lock (`-1` where there is no locking); `nil` when
    ///   another process took the new file for a killed writer's and removed it before this
    ///   writer could lock it: write again under a new name.
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` naming `document`; the temporary
    ///   file is then removed and the document is untouched.
    static func writeLockedTemporary(_ data: Data, atPath temporary: String, for document: URL) throws(StorageError)
        -> Int32?
    {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = DocumentFile.openRetrying(
            .openTemporary, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 { throw .writeFailed(file: document, reason: DocumentFile.describe(errno)) }
        // Between the creation and the lock, a sweeper may take the new, unlocked file for a
        // killed writer's: it removes it only while holding its lock. Once locked here, the
        // file is still in the folder unless it was removed meanwhile.
        if lockRetrying(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }  // a sweeper holds it, to remove it
            unlink(temporary)
            throw .writeFailed(file: document, reason: DocumentFile.describe(code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_nlink > 0 else {
            close(descriptor)
            return nil
        }
        if let failure = DocumentFile.writeThenSync(data, toTemporary: descriptor) {
            unlink(temporary)
            close(descriptor)
            throw .writeFailed(file: document, reason: failure)
        }
        return descriptor
        #else
        try DocumentFile.writeTemporary(data, atPath: temporary, for: document)
        return -1
        #endif
    }

    /// Closes the descriptor of a temporary file that ``writeLockedTemporary(_:atPath:for:)``
    /// returned, releasing its lock: call it once the file was renamed or removed.
    ///
    /// The lock is let go explicitly first: the file renamed is the document now, which writers
    /// lock too (``tryLockDocument(_:)``), and a copy of this descriptor in a child process that
    /// another thread is starting would otherwise keep it locked until the child runs its program.
    static func releaseTemporary(_ descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if descriptor >= 0 { unlockAndClose(descriptor) }
        #endif
    }

    /// What ``claimTemporary(atPath:)`` found.
    enum TemporaryClaim: Equatable {
        /// Its writer holds its lock: it is being written now.
        case live
        /// Nobody held its lock: its writer is gone, and it was removed.
        case removed
        /// It is not a temporary file this user's writer could have left (another user's, a
        /// link, a file with other names), or it is gone: it was left as it is.
        case notOurs
    }

    /// Removes the temporary file at `path`, named as this version names them
    /// (``TemporaryNames/Writer/locked(lockInode:)``), when its writer is gone: when this process
    /// can take the file's lock itself, without waiting. A writer holds that lock for as long as
    /// the file exists, so a file whose lock is free was left by a writer that was killed —
    /// whatever its process id now names, in this pid namespace or another. A file whose lock
    /// is held is live and left alone; so is any file that is not a regular file of the current
    /// user with one name.
    static func claimTemporary(atPath path: String) -> TemporaryClaim {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let me = geteuid()
        var seen = stat()
        // Looked at before it is opened: opening anything else (a device, a FIFO) could act.
        guard lstat(path, &seen) == 0, (seen.st_mode & S_IFMT) == S_IFREG, seen.st_uid == me, seen.st_nlink == 1 else {
            return .notOurs
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 { return .notOurs }
        defer { unlockAndClose(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_dev == seen.st_dev, info.st_ino == seen.st_ino else {
            return .notOurs
        }
        if lockRetrying(descriptor, LOCK_EX | LOCK_NB) != 0 { return errno == EWOULDBLOCK ? .live : .notOurs }
        // Removed only while its lock is held here, and only if the name still leads to it.
        var now = stat()
        guard lstat(path, &now) == 0, now.st_dev == info.st_dev, now.st_ino == info.st_ino else { return .notOurs }
        return unlink(path) == 0 ? .removed : .notOurs
        #else
        return .notOurs
        #endif
    }

    /// Whether a writer holds the temporary file open as `descriptor` (this version's writers
    /// lock theirs while it exists): a shared lock can't be taken at once. When it can, it stays
    /// held until `descriptor` is closed.
    static func isHeldByAWriter(_ descriptor: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        flock(descriptor, LOCK_SH | LOCK_NB) != 0
        #else
        false
        #endif
    }
}
