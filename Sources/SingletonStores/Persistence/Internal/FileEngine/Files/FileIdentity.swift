#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// What tells one version of a document from the next without reading it whole: the file's
/// device, inode and size, and for a two-slot file (see ``SlotFile``) the highest sequence number
/// of its slots, else its modification and status-change times. A document replaced by rename
/// gets a new inode; one written in place by the library gets a new sequence, whatever the
/// clock's resolution (two writes within one tick of the file system's clock keep the same
/// times). A two-slot file's times are not asked for (they are 0): asking would make its next
/// write in place write its inode to the disk too (see ``FileInfo``).
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int128
    let statusChanged: Int128
    let sequence: UInt64?

    /// The identity of what is at `path` (a link is not followed), or `nil` when nothing is.
    static func of(_ path: String) -> FileIdentity? {
        guard let look = FileInfo.of(path: path) else { return nil }
        if look.isRegularFile, look.size > 0, let sequence = sequence(path) {
            return FileIdentity(
                device: look.stamp.device, inode: look.stamp.inode, size: look.size, modified: 0, statusChanged: 0,
                sequence: sequence)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(
            device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(truncatingIfNeeded: info.st_size),
            modified: info.modifiedNanoseconds,
            statusChanged: info.statusChangedNanoseconds,
            sequence: nil)
    }

    /// The highest slot sequence of the two-slot file at `path`; `nil` for any other file.
    private static func sequence(_ path: String) -> UInt64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return SlotFile.peekSequence { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return read > 0 ? Array(bytes[0..<read]) : []
        }
    }
}

extension stat {
    /// The file's last modification time, in nanoseconds since 1970.
    var modifiedNanoseconds: Int128 {
        #if canImport(Darwin)
        st_mtimespec.nanoseconds
        #else
        st_mtim.nanoseconds
        #endif
    }

    /// The file's last status change time, in nanoseconds since 1970.
    var statusChangedNanoseconds: Int128 {
        #if canImport(Darwin)
        st_ctimespec.nanoseconds
        #else
        st_ctim.nanoseconds
        #endif
    }
}

extension timespec {
    /// The time, in nanoseconds.
    var nanoseconds: Int128 { Int128(tv_sec) * 1_000_000_000 + Int128(tv_nsec) }
}
#endif
