#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// What tells one version of a document from the next without reading it: the file's device,
/// inode, size and modification and status-change times. A document replaced by rename gets a
/// new inode; one rewritten in place gets a new size or time.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int128
    let statusChanged: Int128

    /// The identity of what is at `path` (a link is not followed), or `nil` when nothing is.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        let statusChanged = info.st_ctimespec
        #else
        let modified = info.st_mtim
        let statusChanged = info.st_ctim
        #endif
        return FileIdentity(
            device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(truncatingIfNeeded: info.st_size),
            modified: nanoseconds(modified),
            statusChanged: nanoseconds(statusChanged))
    }

    private static func nanoseconds(_ time: timespec) -> Int128 {
        Int128(time.tv_sec) * 1_000_000_000 + Int128(time.tv_nsec)
    }
}
#endif
