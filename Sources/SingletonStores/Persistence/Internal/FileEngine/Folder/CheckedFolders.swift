#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

/// How long this process reuses a walk of a data folder's path (see ``CheckedFolders``): one
/// second, lowered by tests for their task (`FolderCheckReuse.$interval.withValue(.zero) { … }`)
/// to see a change further up the path at the next write.
package enum FolderCheckReuse {
    /// The interval for the current task.
    @TaskLocal package static var interval = Duration.seconds(1)
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The data folders whose whole path this process proved it can trust (``TrustedPath``) and
/// found private, so that the writes and reads that follow do not walk the path again.
///
/// A folder is remembered only when the check found it a private folder of the user (no
/// permission for group or others): a check of it, tightening or not, then has nothing to change
/// or report, whatever the folder holds. A later check of the same path reuses the walk when,
/// within ``FolderCheckReuse/interval`` of it, one `stat` of the path (links followed, as the
/// walk follows the user's own links) finds the same folder — device and inode — with the same
/// owner and mode, and the owner is still the process's user. Anything else walks the path
/// again: a folder that was replaced, moved, given to another user or whose permissions changed
/// is seen at once; a change further up the path (a parent made writable by others, which only
/// its owner — the user or root, as the walk proved — can make) within the interval.
enum CheckedFolders {
    /// What a walk found at a path, and when.
    private struct Check {
        let device: UInt64
        let inode: UInt64
        let owner: uid_t
        let mode: mode_t
        let walked: ContinuousClock.Instant
    }

    /// The walks to reuse, by path; emptied when it holds more than ``capacity`` paths.
    private static let checks = Locked<[String: Check]>([:])

    /// The most paths kept: a process uses a few data folders (a test process, many).
    private static let capacity = 256

    /// How many walks were remembered for each path, for tests (see ``walks(of:)``).
    private static let remembered = Locked<[String: Int]>([:])

    /// Whether the folder at `path` is still the private folder of the user that a walk found
    /// there within the reuse interval.
    static func isStillChecked(_ path: String) -> Bool {
        guard let check = checks.withLock({ $0[path] }), ContinuousClock.now - check.walked < FolderCheckReuse.interval
        else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return UInt64(truncatingIfNeeded: info.st_dev) == check.device
            && UInt64(truncatingIfNeeded: info.st_ino) == check.inode && info.st_mode == check.mode
            && info.st_uid == check.owner && check.owner == geteuid()
    }

    /// Remembers the walk of `path` that found `info` and passed every check, when it found a
    /// private folder of the user.
    static func remember(_ path: String, _ info: stat) {
        let me = geteuid()
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_mode & 0o077 == 0, info.st_uid == me else { return }
        let check = Check(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino), owner: me,
            mode: info.st_mode, walked: .now)
        checks.withLock { checks in
            if checks.count >= capacity, checks[path] == nil { checks.removeAll(keepingCapacity: true) }
            checks[path] = check
        }
        remembered.withLock { counts in
            if counts.count >= capacity, counts[path] == nil { counts.removeAll(keepingCapacity: true) }
            counts[path, default: 0] += 1
        }
    }

    /// How many times a walk of the folder `path` was remembered: the walks that were not
    /// reused, of a private folder.
    static func walks(of path: String) -> Int {
        remembered.withLock { $0[path] ?? 0 }
    }
}
#endif
