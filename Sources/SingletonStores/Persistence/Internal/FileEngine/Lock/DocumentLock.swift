#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A lock taken by ``FileLocks/withExclusiveLock(on:waiting:_:)``, valid inside its body.
struct LockLease {
    /// The lock file.
    let file: URL
    /// The locked descriptor (`-1` where there is no locking).
    let descriptor: Int32
    /// The device and inode of the locked file, as `fstat` gave them when it was opened (an open
    /// descriptor's file never changes); `nil` where there is no locking.
    let identity: FileStamp?
    /// The lock file's path (made once: a `URL` makes its path anew at each call).
    let path: String

    /// Whether the lock file's path still names the locked file. When it does not — the file
    /// was removed or replaced — another writer may have locked the new one: commit nothing.
    var isStillHeld: Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        identity != nil && FileStamp.of(path: path) == identity
        #else
        true
        #endif
    }

    /// ``isStillHeld``, by a look that also tells whether the locked file is still one the
    /// library may use — the checks ``FileLocks/openLockFile(_:path:)`` makes of a lock file it
    /// opens: a lock file kept open since an earlier transaction (``KeptFiles``), then given to
    /// another user or linked under another name, is refused as a newly opened one would be.
    var isStillHeldAndUsable: Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let identity, let info = FileInfo.of(path: path), info.stamp == identity else { return false }
        return info.isRegularFile && info.owner == geteuid() && info.links <= 1
        #else
        true
        #endif
    }
}

/// The locks of the file engine: a key's lock file (`flock(LOCK_EX)`, waited for with a
/// bounded patience), the document file's own lock held from the read to the commit, and the
/// lock a writer holds on its temporary file (see `TemporaryLocks.swift`). Reading is
/// ``DocumentFile``'s, writing the transaction room's.
enum FileLocks {
    /// How long a lock is waited for.
    enum LockWait: Sendable, Equatable {
        /// Up to this long without progress — another writer committing `document`, when
        /// given — then ``StorageError/lockTimedOut(file:holder:waited:)`` is thrown.
        case upTo(Duration, document: URL?)
        /// Not at all: when another holds the lock, the body does not run.
        case never

        /// How long a wait lasts at most; `nil` for ``never``.
        var limit: Duration? {
            switch self {
            case .upTo(let limit, _): limit
            case .never: nil
            }
        }
    }

    /// Runs `body` while holding an exclusive advisory lock on the file at `lockFile`
    /// (created `0600` if needed, never deleted; a link in its place is refused), waiting for
    /// another holder at most as `wait` says (see ``LockPatience``).
    ///
    /// The threads of this process queue for the lock in order (``LockQueue``); the first
    /// polls `flock(LOCK_EX | LOCK_NB)` with short sleeps (see ``pause(after:backingOff:)``),
    /// measuring the wait on the monotonic clock. Once locked, the path must still name the
    /// locked file: a lock file removed or replaced meanwhile (by a person, say) locks nothing
    /// others can see, so it is closed and the path opened and locked again.
    ///
    /// The lock is let go with `flock(LOCK_UN)` before the descriptor is closed. A `flock` lock
    /// belongs to the open file description, and a child process that another thread is
    /// starting holds a copy of every descriptor until it runs its program (close-on-exec only
    /// closes it then): closing alone would leave the lock held by that copy for a moment, and a
    /// load or `updateIfAvailable` that must not wait would find the document busy.
    ///
    /// With `kept`, the lock file is not closed but kept open for the next transaction of the key
    /// (``KeptFiles``), once `body` has run under it; the next one takes it from there instead of
    /// opening the path, and checks it against the path the same way.
    ///
    /// - Returns: What `body` returned, or `nil` when `wait` is ``LockWait/never`` and another
    ///   holds the lock (then `body` did not run).
    /// - Throws: ``StorageError/lockTimedOut(file:holder:waited:)`` when the lock stayed held
    ///   without progress for the whole wait, ``StorageError/lockFailed(file:reason:)`` when it
    ///   could not be taken at all, or what `body` threw.
    static func withExclusiveLock<Result>(
        on lockFile: URL,
        waiting wait: LockWait,
        keeping kept: KeptFiles? = nil,
        _ body: (LockLease) throws(StorageError) -> Result
    ) throws(StorageError) -> Result? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var patience: LockPatience?
        if case .upTo(let limit, let document) = wait { patience = LockPatience(limit: limit, document: document) }
        let lockPath = lockFile.filePath
        guard let ticket = LockQueue.shared.enter(lockPath, patience: &patience) else {
            guard let patience else { return nil }
            throw timedOut(lockFile, patience)
        }
        var served = false
        defer { LockQueue.shared.leave(lockPath, ticket: ticket, served: served) }
        while true {
            // The turnstile `<key>.lock-queue`: a writer that has to wait holds it while it
            // polls, and every writer passes it first, so one that has just let go of the lock
            // queues behind the waiter instead of taking the lock again at once. It is created
            // by the first writer that has to wait.
            var turnstile = openTurnstile(for: lockPath, creating: false)
            defer { if turnstile >= 0 { unlockAndClose(turnstile) } }
            if turnstile >= 0, try !poll(turnstile, lockFile: lockFile, patience: &patience, injecting: false) {
                return nil
            }
            // The lock file this storage kept open since its last transaction of the key, if
            // any: checked against the path below, as a newly opened one is.
            let descriptor: Int32
            let identity: FileStamp
            let wasKept: Bool
            if let taken = kept?.take(lockPath) {
                (descriptor, identity, wasKept) = (taken.descriptor, taken.stamp, true)
            } else {
                (descriptor, identity) = try openLockFile(lockFile, path: lockPath)
                wasKept = false
            }
            // Kept again once a body has run under it: the path still named it then.
            var keeps = false
            defer {
                if keeps, let kept {
                    unlock(descriptor)
                    if !kept.keep(lockPath, descriptor: descriptor, stamp: identity) { close(descriptor) }
                } else {
                    unlockAndClose(descriptor)
                }
            }
            var once: LockPatience?
            if try !poll(descriptor, lockFile: lockFile, patience: &once, injecting: true) {
                guard patience != nil else { return nil }
                if turnstile < 0 {
                    turnstile = openTurnstile(for: lockPath, creating: true)
                    if turnstile >= 0 { _ = try poll(turnstile, lockFile: lockFile, patience: &patience, injecting: false) }
                }
                _ = try poll(descriptor, lockFile: lockFile, patience: &patience, injecting: false)
            }
            if turnstile >= 0 {
                unlockAndClose(turnstile)
                turnstile = -1
            }
            // Locked. Is this still the file others open under that name? (And, for one kept
            // open since an earlier transaction, still one to use: if not, it is closed and
            // the path opened again, which says why it is refused.)
            let lease = LockLease(file: lockFile, descriptor: descriptor, identity: identity, path: lockPath)
            if wasKept ? lease.isStillHeldAndUsable : lease.isStillHeld {
                served = true
                keeps = true
                return try body(lease)
            }
        }
        #else
        return try body(LockLease(file: lockFile, descriptor: -1, identity: nil, path: lockFile.filePath))
        #endif
    }

    /// Takes `flock(LOCK_EX)` on `descriptor`, polling with `LOCK_NB` and short sleeps while
    /// another holds it, until `patience` runs out.
    ///
    /// - Returns: `true` when locked; `false` when `patience` is `nil` (no wait) and the lock is
    ///   held.
    /// - Throws: ``StorageError/lockTimedOut(file:holder:waited:)`` or
    ///   ``StorageError/lockFailed(file:reason:)``.
    static func poll(
        _ descriptor: Int32, lockFile: URL, patience: inout LockPatience?, injecting: Bool
    ) throws(StorageError) -> Bool {
        var pause = Duration.milliseconds(1)
        while true {
            let injected = injecting ? FileFaults.injected(.flock) : nil
            let code = injected ?? (flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? nil : errno)
            guard let code else { return true }
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                throw .lockFailed(file: lockFile, reason: DocumentFile.describe(code))
            }
            guard patience != nil else { return false }
            guard let left = patience?.remaining(), let waited = patience?.waited else {
                if let patience { throw timedOut(lockFile, patience) }
                return false
            }
            sleep(for: min(Self.pause(after: waited, backingOff: pause), left))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Takes `flock(LOCK_EX | LOCK_NB)` on a document file open as `descriptor`, which a writer
    /// holds from its read to its commit, beside the lock file's: two writers that each hold a
    /// lock file (one removed or replaced meanwhile) still never write the same document file at
    /// once. The lock goes with the descriptor's close.
    ///
    /// - Returns: `false` when another writer holds it; `true` when it is taken, or when the file
    ///   system has no such locks (the lock file's lock alone then keeps writers apart).
    static func tryLockDocument(_ descriptor: Int32) -> Bool {
        lockRetrying(descriptor, LOCK_EX | LOCK_NB) == 0 || (errno != EWOULDBLOCK && errno != EAGAIN)
    }

    /// Lets go of the lock on `descriptor`, if it holds one, then closes it: explicitly, so
    /// that a copy of the descriptor in a child process being started does not keep the lock.
    static func unlockAndClose(_ descriptor: Int32) {
        unlock(descriptor)
        close(descriptor)
    }

    /// Lets go of the lock on `descriptor`, if it holds one, and leaves it open (one kept for the
    /// next transaction, ``KeptFiles``).
    static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    /// The error of a wait that ran out of `patience`, naming the holder where the system tells.
    static func timedOut(_ lockFile: URL, _ patience: LockPatience) -> StorageError {
        .lockTimedOut(file: lockFile, holder: LockHolder.processID(ofFileAt: lockFile.filePath), waited: patience.limit)
    }

    /// How long a writer that has waited `waited` sleeps before polling again.
    ///
    /// The first 50 ms back off from 1 ms towards 20 ms (`backingOff`), sparing the processor
    /// during short waits. After that the sleep shrinks as the wait grows, from 10 ms to 1 ms
    /// after half a second, so that of several writers waiting their turn, the one
    /// that has waited longest polls most often and most likely comes next: polling has no
    /// queue, and without this a writer could lose every turn to newer ones until it timed out.
    static func pause(after waited: Duration, backingOff: Duration) -> Duration {
        let shortWait = Duration.milliseconds(50)
        guard waited > shortWait else { return min(backingOff, .milliseconds(20)) }
        let aged = Duration.milliseconds(10) * (shortWait / waited)
        return max(min(aged, .milliseconds(10)), .milliseconds(1))
    }

    /// Opens the turnstile file `<key>.lock-queue` beside the lock file at `lockPath`; `-1` when it is not
    /// there (and not `creating`) or can't be opened: waiting is then merely less fair.
    static func openTurnstile(for lockPath: String, creating: Bool) -> Int32 {
        let path = lockPath + "-queue"
        while true {
            // Not blocking: a FIFO in its place would otherwise wait for a writer forever.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (creating ? O_CREAT : 0), 0o600)
            if descriptor < 0, errno == EINTR { continue }
            guard descriptor >= 0 else { return descriptor }
            // A turnstile that is not a plain file of this user is not used.
            var info = stat()
            if fstat(descriptor, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG || foreignLockFileProblem(info) != nil {
                close(descriptor)
                return -1
            }
            return descriptor
        }
    }

    /// Opens (creating if needed) the lock file `lockFile`, whose path is `path`, and checks that
    /// it is a regular file.
    ///
    /// - Returns: The descriptor, and the device and inode of the file it opened.
    static func openLockFile(_ lockFile: URL, path: String) throws(StorageError) -> (Int32, FileStamp) {
        // Read-only is enough for flock, and still opens a lock file an older version left `0400`.
        // Not blocking (which `flock` ignores): a FIFO in its place would otherwise wait for a
        // writer forever, where it must be refused as not a regular file.
        let descriptor = DocumentFile.openRetrying(
            .openLock, path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if descriptor < 0 {
            let code = errno
            if DocumentFile.itemKind(at: path) == .symbolicLink {
                throw .lockFailed(
                    file: lockFile,
                    reason: "it is a symbolic link, which is never followed; quit every process that uses this "
                        + "folder, then remove the link (a lock file holds no data)")
            }
            throw .lockFailed(file: lockFile, reason: DocumentFile.describe(code))
        }
        var info = stat()
        if fstat(descriptor, &info) != 0 {
            let code = errno
            close(descriptor)
            throw .lockFailed(file: lockFile, reason: DocumentFile.describe(code))
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            close(descriptor)
            throw .lockFailed(
                file: lockFile,
                reason: "it is \(DocumentFile.describeKind(info.st_mode)), not a regular file; quit every process that uses "
                    + "this folder, then remove it (a lock file holds no data)")
        }
        if let problem = foreignLockFileProblem(info) {
            close(descriptor)
            throw .lockFailed(file: lockFile, reason: problem)
        }
        if info.st_mode & 0o777 != 0o600 {
            _ = fchmod(descriptor, 0o600)  // created under a narrow umask, or by an older version
        }
        let identity = FileStamp(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
        return (descriptor, identity)
    }

    /// Why the lock file opened with `info` is not one the library may use, or `nil` when it
    /// is: it must belong to the current user and have no other name (a hard link to another
    /// file would have that file's mode changed and its lock taken).
    static func foreignLockFileProblem(_ info: stat) -> String? {
        if info.st_uid != geteuid() {
            return "it belongs to another user (uid \(info.st_uid)), not to you (uid \(geteuid())), so it is not "
                + "used; quit every process that uses this folder, then remove it (a lock file holds no data)"
        }
        // No name at all (0) is a lock file removed since it was opened: the lease sees that.
        if info.st_nlink > 1 {
            return "it has \(info.st_nlink) names (hard links), so it may be another file and is not used; quit "
                + "every process that uses this folder, then remove it (a lock file holds no data)"
        }
        return nil
    }

    /// Sleeps the calling thread for `duration` (a wait for another process, on real time).
    static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// `flock`, retried while interrupted by a signal.
    static func lockRetrying(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = flock(descriptor, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }
}

/// How much longer a writer waits for a lock: ``limit`` without progress — another writer
/// committing the document, or this process's queue moving on — and never more than
/// ``cap`` in all.
///
/// So a holder that is stopped or hung makes waiters give up after the storage's lock
/// timeout, while writers that merely take turns on a busy store wait as long as the others
/// get on.
struct LockPatience {
    /// The longest wait without progress: the storage's lock timeout.
    let limit: Duration
    /// The longest wait in all: ``FileStorage/maximumLockTimeout``.
    static let cap = FileStorage.maximumLockTimeout
    /// When the wait began.
    let started: ContinuousClock.Instant
    /// When progress was last seen.
    private(set) var lastProgress: ContinuousClock.Instant
    /// The document whose commits count as progress; `nil` when none is watched.
    private let document: URL?
    /// The document's stamp when the wait first had to look (`nil` inside: nothing was there);
    /// `nil` until then. A lock that is free at once never looks at the document.
    private var stamp: FileIdentity??

    init(limit: Duration, document: URL?) {
        self.limit = limit
        self.document = document
        started = ContinuousClock.now
        lastProgress = started
    }

    /// Notes progress seen by other means (the queue moved on).
    mutating func progressed() {
        lastProgress = ContinuousClock.now
    }

    /// The wait left, after looking for a new commit of the document; `nil` when patience has
    /// run out.
    mutating func remaining() -> Duration? {
        let now = ContinuousClock.now
        if let document {
            let current = FileIdentity.of(document.filePath)
            if let seen = stamp, current != seen { lastProgress = now }
            stamp = current
        }
        let idle = now - lastProgress
        guard idle < limit, now - started < Self.cap else { return nil }
        return limit - idle
    }

    /// How long the wait has lasted so far.
    var waited: Duration { ContinuousClock.now - started }
}

// MARK: - Between the threads of this process
//
// The document's lock is taken once per process at a time: a thread that wants it waits its turn
// here, first come first served, before it asks another process's `flock`.

/// This process's writers of one lock file, first come, first served.
///
/// `flock(LOCK_NB)` polling is not fair: a thread that sleeps between polls loses the lock to
/// one that re-takes it at once, and eight threads of one process writing in a loop can starve
/// one of them past its timeout. So the threads of a process queue here first, in order, and
/// only the first of each lock file polls `flock`; the wait in this queue counts toward the
/// same timeout.
final class LockQueue: @unchecked Sendable {
    /// The queues of this process.
    static let shared = LockQueue()

    // Guards `waiting` and `nextTicket`; waiters sleep on it.
    private let condition = NSCondition()
    /// The tickets queued for each lock file's path; the first one may lock the file.
    private var waiting: [String: [UInt64]] = [:]
    private var nextTicket: UInt64 = 0
    /// How many writers of each path got the lock and left: the queue moving on is progress.
    private var served: [String: UInt64] = [:]

    /// Joins the queue of `path` and waits until first in it.
    ///
    /// - Parameters:
    ///   - path: The lock file's path.
    ///   - patience: How long to wait without progress (a writer ahead getting the lock and
    ///     leaving counts); `nil` to give up at once when another thread is queued.
    /// - Returns: The ticket to ``leave(_:ticket:served:)`` with, or `nil` when patience ran
    ///   out first (then the queue was left).
    func enter(_ path: String, patience: inout LockPatience?) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        if patience == nil, waiting[path]?.isEmpty == false { return nil }
        nextTicket &+= 1
        let ticket = nextTicket
        waiting[path, default: []].append(ticket)
        var seen = served[path, default: 0]
        while waiting[path]?.first != ticket {
            if served[path, default: 0] != seen {
                seen = served[path, default: 0]
                patience?.progressed()
            }
            guard let left = patience?.remaining() else {
                remove(ticket, from: path)
                return nil
            }
            // Wake now and then to look for commits by other processes.
            let nap = min(left, .milliseconds(50))
            let (seconds, attoseconds) = nap.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
        }
        return ticket
    }

    /// Leaves the queue of `path`, letting the next thread in.
    ///
    /// - Parameter served: Whether this writer got the lock (progress for those behind it).
    func leave(_ path: String, ticket: UInt64, served: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if served { self.served[path, default: 0] &+= 1 }
        remove(ticket, from: path)
        if waiting[path] == nil { self.served[path] = nil }
    }

    private func remove(_ ticket: UInt64, from path: String) {
        waiting[path]?.removeAll { $0 == ticket }
        if waiting[path]?.isEmpty == true { waiting[path] = nil }
        condition.broadcast()
    }
}
