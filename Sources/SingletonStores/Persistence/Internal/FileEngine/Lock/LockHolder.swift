#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which process holds a lock file, where the system tells.
///
/// On Linux, `/proc/locks` lists every `flock` lock with the holder's process id and the
/// locked file's device and inode. Elsewhere the holder is not known (`nil`).
enum LockHolder {
    /// The process holding the `flock` lock on the file at `path`, if the system tells and it
    /// is not this process.
    static func processID(ofFileAt path: String) -> Int32? {
        #if os(Linux)
        var info = stat()
        guard lstat(path, &info) == 0,
            let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        return processID(
            inLocksTable: table, device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            excluding: getpid())
        #else
        return nil
        #endif
    }

    /// The holder of the `FLOCK` lock on `inode` of `device` in a `/proc/locks` table, other
    /// than `own`.
    ///
    /// Each line reads `1: FLOCK  ADVISORY  WRITE 4242 fe:00:16228734 0 EOF`; waiters are marked
    /// `->` and skipped. The device is `major:minor` in hexadecimal, as Linux encodes `st_dev`.
    static func processID(inLocksTable table: String, device: UInt64, inode: UInt64, excluding own: Int32) -> Int32? {
        processIDs(inLocksTable: table, device: device, inode: inode).first { $0 != own }
    }

    /// Whether process `pid` holds a `flock` lock on any file: `true` or `false` where the
    /// system tells (Linux), `nil` elsewhere or when `/proc/locks` can't be read.
    ///
    /// A writer of the library holds its store's lock for as long as its temporary file of that
    /// store exists, so a process named by a temporary file that holds no lock at all is not
    /// writing it (its id was reused, or the file was not written by the library). Any file
    /// counts, not only those of the folder's device: some file systems (overlays, subvolumes)
    /// report another device for a file than the one its lock is listed under.
    static func holdsLock(_ pid: Int32) -> Bool? {
        #if os(Linux)
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        return processIDs(inLocksTable: table, device: nil, inode: nil).contains(pid)
        #else
        return nil
        #endif
    }

    /// The holders of `FLOCK` locks on `inode` of `device` (`nil`: any) in a `/proc/locks`
    /// table, in table order (waiters, marked `->`, skipped).
    static func processIDs(inLocksTable table: String, device: UInt64?, inode: UInt64?) -> [Int32] {
        let major = device.map { (($0 >> 8) & 0xfff) | (($0 >> 32) & ~UInt64(0xfff)) }
        let minor = device.map { ($0 & 0xff) | (($0 >> 12) & ~UInt64(0xff)) }
        var holders: [Int32] = []
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3,
                major == nil || UInt64(file[0], radix: 16) == major, minor == nil || UInt64(file[1], radix: 16) == minor,
                inode == nil || UInt64(file[2]) == inode,
                let pid = Int32(fields[4]), pid > 0
            else { continue }
            holders.append(pid)
        }
        return holders
    }
}
