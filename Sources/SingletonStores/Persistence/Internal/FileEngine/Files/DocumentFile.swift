#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
import SingletonStoresFileInfo
#endif

/// Which file a path names: its device and inode, or `nil` when nothing is there. Every
/// commit renames a new file over a document, so a different stamp means another commit.
struct FileStamp: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The stamp of what is at `url` now (links are not followed); `nil` when nothing is, or
    /// where there is no `lstat`.
    static func of(_ url: URL) -> FileStamp? {
        of(path: url.filePath)
    }

    /// ``of(_:)`` of the file at `path`.
    static func of(path: String) -> FileStamp? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        FileInfo.of(path: path)?.stamp
        #else
        nil
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// What the storage looks at of a document file: which file it is, its kind and permissions, its
/// owner, its names and its size — never its times.
///
/// On Linux 6.13 and later, looking at a file's change time (any `stat` or `fstat`) makes the
/// next write of it take a fine-grained time stamp; the inode then changes with every write, and
/// the `fdatasync` that ends a write in place writes the inode to the disk too — a second disk
/// write per commit: a persisted update took about a fifth longer on the host of BENCHMARKS.md.
/// A file looked at through `FileInfo` (`statx` without the times) keeps its coarse time stamps,
/// which most writes leave as they were. (The polling watcher's ``FileIdentity`` reads the times
/// of a plain, one-version document only.)
struct FileInfo {
    let stamp: FileStamp
    let mode: mode_t
    let owner: uid_t
    /// How many names (hard links) the file has.
    let links: Int
    let size: Int64

    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }

    /// The file open as `descriptor`; `nil` with `errno` set when it can't be looked at.
    static func of(descriptor: Int32) -> FileInfo? {
        var info = singleton_stores_file_info()
        guard singleton_stores_file_info_of(descriptor, &info) == 0 else { return nil }
        return FileInfo(info)
    }

    /// The file at `path`, the link itself when it is one (as `lstat`); `nil` with `errno` set
    /// when nothing is there or it can't be looked at.
    static func of(path: String) -> FileInfo? {
        var info = singleton_stores_file_info()
        guard singleton_stores_file_info_at(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &info) == 0 else { return nil }
        return FileInfo(info)
    }

    private init(_ info: singleton_stores_file_info) {
        stamp = FileStamp(device: UInt64(info.device), inode: UInt64(info.inode))
        mode = mode_t(truncatingIfNeeded: info.mode)
        owner = uid_t(truncatingIfNeeded: info.owner)
        links = Int(truncatingIfNeeded: info.links)
        size = Int64(info.size)
    }
}
#endif

/// What reading a document file found.
enum FileContents {
    /// There is no file at the path.
    case missing
    /// The file's bytes.
    case bytes(Data)
    /// Something other than a regular file is at the path: a folder, a pipe, a device or a
    /// socket (`kind` says which, in words).
    case notARegularFile(kind: String)
    /// The file holds more than ``DocumentFile/maximumSize`` bytes (`size`, or at least that
    /// many when it grew while being read); it was not read.
    case tooLarge(size: Int64)
}

/// The most bytes a document is read whole with: 256 MiB, lowered by tests for their task
/// (`DocumentReadLimit.$bytes.withValue(128 * 1_024) { … }`) to try documents longer than it
/// without writing hundreds of megabytes. A larger document is not read whole: a value that
/// reads long documents as a stream (see ``DocumentMigrations/readingLongDocuments(over:_:)``)
/// reads it front to back; any other is kept aside as unreadable.
package enum DocumentReadLimit {
    /// The limit in bytes for the current task.
    @TaskLocal package static var bytes: Int64 = DocumentFile.maximumSize
}

/// The file-system primitives ``FileStorage`` is built on: whole-file reads, atomic
/// replacement, and an advisory exclusive lock. This file reads; the calls that write, flush
/// and fill files are in `Transaction/DocumentWrites.swift`, and only the transaction room
/// renames (the layout test holds both). The locks are ``FileLocks``', in `Lock/`.
///
/// On Glibc, Musl and Darwin these are POSIX calls. Documents, lock files and temporary files
/// are opened with `O_NOFOLLOW`: a symbolic link in their place is refused, never followed.
/// Files are created `0600` whatever the process's umask (`fchmod` after creating). A new file
/// is written to a temporary file in the same folder, `fsync`ed, then `rename`d over the target
/// and the folder flushed; a two-slot document (see ``SlotFile``) is then written in place, one
/// slot at a time, with `pwrite` and `fdatasync`. The lock is `flock(LOCK_EX)` on a lock file,
/// which belongs to the open file description, so it excludes other processes, other
/// ``FileStorage`` instances and other threads alike.
///
/// A failing system call (no free descriptor, no memory, permission denied, an I/O error…)
/// throws and leaves every file where it is; only a document whose content is bad is ever
/// moved aside, by the caller.
///
/// On a platform with none of these C libraries, writes fall back to Foundation's atomic
/// write and the lock does nothing: updates are then not protected against concurrent
/// writers (documented on ``FileStorage``).
enum DocumentFile {
    /// The most bytes a document may hold: 256 MiB. A larger file is not read (reading it could
    /// exhaust memory at every launch); the storage keeps it aside as unreadable.
    static let maximumSize: Int64 = 256 * 1024 * 1024

    /// The most bytes a document is read whole with: ``maximumSize``, or what a test set for
    /// its task (see ``DocumentReadLimit``).
    static var readLimit: Int64 { DocumentReadLimit.bytes }

    /// Reads the whole file at `url`, unless it holds more than `limit` bytes.
    ///
    /// - Throws: ``StorageError/readFailed(file:reason:)`` when the file is there but could
    ///   not be read (it is left as it is), including when it is a symbolic link or belongs to
    ///   another user (never read as this user's data).
    static func contents(of url: URL, limit: Int64 = maximumSize) throws(StorageError) -> FileContents {
        var stamp: FileStamp?
        return try contents(of: url, limit: limit, stamp: &stamp)
    }

    /// ``contents(of:limit:)``, also giving the `stamp` of the file it read: the device and inode
    /// of the file it opened (a look at the descriptor read from, so exactly that file), or,
    /// when nothing could be opened, of what is at the path as it failed (`nil` when nothing is).
    ///
    /// A file longer than `mapsOver` bytes is mapped into memory rather than read: its pages are
    /// read as they are used, so a long document read front to back never sits in memory whole.
    /// A two-slot file is written in place, one slot at a time, while it may be mapped: each
    /// slot's envelope is copied before its checksum is checked (see ``SlotFile``).
    static func contents(
        of url: URL, limit: Int64 = maximumSize, mapsOver: Int64? = nil, stamp: inout FileStamp?
    ) throws(StorageError) -> FileContents {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = openDocument(url.filePath)
        if descriptor < 0 { return try openFailure(url, code: errno, stamp: &stamp) }
        defer { close(descriptor) }
        return try contents(ofOpen: descriptor, url: url, limit: limit, mapsOver: mapsOver, stamp: &stamp)
        #else
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.filePath, isDirectory: &isFolder) else {
            return .missing
        }
        if isFolder.boolValue { return .notARegularFile(kind: "a folder") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.filePath)[.size] as? NSNumber)?.int64Value ?? 0
        if size > limit { return .tooLarge(size: size) }
        do { return .bytes(try Data(contentsOf: url)) } catch {
            throw .readFailed(file: url, reason: error.localizedDescription)
        }
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// What a document that could not be opened (`errno` `code`) is: missing, or not a regular
    /// file; or the failure, thrown (a link is never read).
    static func openFailure(_ url: URL, code: Int32, stamp: inout FileStamp?) throws(StorageError) -> FileContents {
        stamp = nil
        if code == ENOENT { return .missing }
        stamp = FileStamp.of(url)
        switch itemKind(at: url.filePath) {
        case .symbolicLink: throw .readFailed(file: url, reason: symbolicLinkReason)
        case .other(let kind): return .notARegularFile(kind: kind)
        case .regularFile, .none: throw .readFailed(file: url, reason: describe(code))
        }
    }

    /// ``contents(of:limit:mapsOver:stamp:)`` of the document `url` open as `descriptor`, read
    /// from its start.
    static func contents(
        ofOpen descriptor: Int32, url: URL, limit: Int64, mapsOver: Int64?, stamp: inout FileStamp?
    ) throws(StorageError) -> FileContents {
        var names = 0
        return try contents(ofOpen: descriptor, url: url, limit: limit, mapsOver: mapsOver, stamp: &stamp, names: &names)
    }

    /// ``contents(ofOpen:url:limit:mapsOver:stamp:)``, also giving how many names the file had
    /// when it was opened (its link count, by the same look: ``FileInfo``).
    static func contents(
        ofOpen descriptor: Int32, url: URL, limit: Int64, mapsOver: Int64?, stamp: inout FileStamp?, names: inout Int
    ) throws(StorageError) -> FileContents {
        if let code = FileFaults.injected(.fstat) {
            throw .readFailed(file: url, reason: describe(code))
        }
        guard let info = FileInfo.of(descriptor: descriptor) else { throw .readFailed(file: url, reason: describe(errno)) }
        stamp = info.stamp
        names = info.links
        return try contents(ofOpen: descriptor, info: info, url: url, limit: limit, mapsOver: mapsOver)
    }

    /// The document `url` open as `descriptor`, whose file `info` describes (a look at the
    /// descriptor, or at the path once it is known to name the same file), read from its start
    /// whatever the descriptor's position: a descriptor kept open between transactions reads
    /// the same way as a new one.
    ///
    /// The file must belong to `owner`: this process's user, unless the caller knows whom the
    /// file belonged to when this process opened it (a descriptor kept open since).
    static func contents(
        ofOpen descriptor: Int32, info: FileInfo, url: URL, limit: Int64, mapsOver: Int64?, owner: UInt32? = nil
    ) throws(StorageError) -> FileContents {
        if info.owner != owner ?? geteuid() { throw .readFailed(file: url, reason: otherOwnerReason(info.owner)) }
        if !info.isRegularFile { return .notARegularFile(kind: describeKind(info.mode)) }
        let size = info.size
        if size > limit { return .tooLarge(size: size) }
        if let mapsOver, size > mapsOver, let mapped = mapPrivateCopy(of: descriptor, size: size, nextTo: url) {
            return .bytes(mapped)
        }
        var data = Data()
        data.reserveCapacity(Int(size))
        // Room for the whole file and one byte more (to see that it ends), up to 64 KiB a read:
        // a small document is read by one call into a small buffer.
        var buffer = [UInt8](repeating: 0, count: Int(min(max(size + 1, 4096), 64 * 1024)))
        while true {
            let count: Int
            if let code = FileFaults.injected(.read) {
                errno = code
                count = -1
            } else {
                let offset = off_t(data.count)
                count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .readFailed(file: url, reason: describe(code))
            }
            if count == 0 { return .bytes(data) }
            data.append(contentsOf: buffer[0..<count])
            if Int64(data.count) > limit { return .tooLarge(size: Int64(data.count)) }  // it grew meanwhile
            // The whole file as it was measured, by a read that did not fill the buffer: at its
            // end (a file that grew meanwhile fills one more byte, and is read on).
            if Int64(data.count) == size, count < buffer.count { return .bytes(data) }
        }
    }
    #endif

    /// Whether anything (file, folder, dangling link) is at `url`.
    static func exists(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return FileInfo.of(path: url.filePath) != nil || errno != ENOENT
        #else
        return FileManager.default.fileExists(atPath: url.filePath)
        #endif
    }

    /// Removes the file at `url`, ignoring failures (a link is removed, not followed).
    static func remove(_ url: URL) {
        remove(atPath: url.filePath)
    }

    /// ``remove(_:)`` of the file at `path`.
    static func remove(atPath path: String) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        unlink(path)
        #else
        try? FileManager.default.removeItem(atPath: path)
        #endif
    }

    /// The end of ``otherOwnerReason(_:)``, by which a message recognises it.
    static let otherOwnerMarker = "so it is not read as your data"

    /// Whether the file at `url` is in the library's format, as far as its first bytes tell: a
    /// regular file of the current user, with no other name, that starts as the library's
    /// documents do (`{"formatVersion": <digit>`, spaces allowed). Such a file the library may
    /// have written; any other is never renamed or removed as the library's, except in a
    /// folder the library made for itself.
    static func isInLibraryFormat(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // Only a regular file is opened at all: opening a device may do something.
        guard itemKind(at: url.filePath) == .regularFile else { return false }
        let descriptor = open(url.filePath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        if descriptor < 0 { return false }
        defer { close(descriptor) }
        guard let info = FileInfo.of(descriptor: descriptor), info.isRegularFile, info.owner == geteuid(), info.links == 1
        else { return false }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return startsLikeADocument(buffer[0..<count])
        #else
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return startsLikeADocument((try? handle.read(upToCount: 256)) ?? Data())
        #endif
    }

    /// Whether `bytes` start as a document's envelope: `{`, then `"formatVersion"`, `:` and a
    /// digit, with JSON white space between them.
    static func startsLikeADocument(_ bytes: some Collection<UInt8>) -> Bool {
        var rest = bytes[...]
        func skipSpace() { rest = rest.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 } }
        func take(_ text: String) -> Bool {
            guard rest.starts(with: text.utf8) else { return false }
            rest = rest.dropFirst(text.utf8.count)
            return true
        }
        skipSpace()
        guard take("{") else { return false }
        skipSpace()
        guard take("\"formatVersion\"") else { return false }
        skipSpace()
        guard take(":") else { return false }
        skipSpace()
        return rest.first.map { (0x30...0x39).contains($0) } ?? false
    }

    /// Why the file open as `descriptor` (read from its start) is not wholly a document the
    /// library wrote, or `nil` when it is: one JSON object whose members are `formatVersion` —
    /// a format version this build reads (``DocumentFormat/oldestReadable`` through
    /// ``DocumentFormat/current``) — `value`, and optionally `valueVersion` (a whole number from
    /// 1) and `store` (the name of the store that wrote it), each once, nothing else and nothing
    /// after it. The value's nesting is checked, not
    /// its contents (its store's type decides those). The file is read front to back in
    /// chunks, never held whole.
    ///
    /// A file that says it is of a newer format is not proven the library's: a newer version's
    /// envelope can't be known here, and a file of another program can start the same way.
    ///
    /// A two-slot file (see ``SlotFile``) is the library's when its header is whole and its
    /// current slot holds such an envelope.
    static func envelopeProblem(ofOpen descriptor: Int32) -> String? {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        let start = (try? handle.read(upToCount: SlotFile.signature.count)) ?? Data()
        guard SlotFile.isSlotFile(start) else {
            guard (try? handle.seek(toOffset: 0)) != nil else { return "it could not be read" }
            return envelopeProblem(of: DocumentStream(handle: handle))
        }
        guard let info = FileInfo.of(descriptor: descriptor), info.size <= Int64(SlotFile.headerSize + 2 * SlotFile.largestSlot),
            (try? handle.seek(toOffset: 0)) != nil, let bytes = try? handle.readToEnd()
        else { return "it could not be read" }
        do {
            return envelopeProblem(of: DocumentStream(data: try SlotFile.current(of: bytes).slot.envelope))
        } catch {
            return error.reason
        }
    }

    /// ``envelopeProblem(ofOpen:)`` of the envelope `stream` reads.
    static func envelopeProblem(of stream: DocumentStream) -> String? {
        struct NotOurs: Error { let reason: String }
        var stream = stream
        var seen: Set<String> = []
        var formatVersion: Int?
        do {
            try stream.forEachMember { key, stream in
                let shown = "“\(String(key.prefix(40)).escapingControlCharacters)”"
                guard seen.insert(key).inserted else { throw NotOurs(reason: "it has the key \(shown) twice") }
                switch key {
                case "formatVersion":
                    formatVersion = try? JSONDecoder().decode(Int.self, from: Data(stream.valueBytes(limit: 64)))
                    guard formatVersion != nil else { throw NotOurs(reason: "its “formatVersion” is not a whole number") }
                case "valueVersion":
                    let version = try? JSONDecoder().decode(Int.self, from: Data(stream.valueBytes(limit: 64)))
                    guard let version, version >= 1 else {
                        throw NotOurs(reason: "its “valueVersion” is not a whole number from 1")
                    }
                case "value": try stream.skipValue()
                case "store":
                    let store = try? JSONDecoder().decode(String.self, from: Data(stream.valueBytes(limit: 1024)))
                    guard store != nil else { throw NotOurs(reason: "its “store” is not a store's name") }
                default: throw NotOurs(reason: "it has the key \(shown), which the app's documents do not have")
                }
            }
            try stream.expectEnd()
        } catch let notOurs as NotOurs {
            return notOurs.reason
        } catch let failure as DocumentStream.ReadFailure {
            return "it could not be read (\(failure.reason))"
        } catch {
            return "it is not a JSON object as the app writes its documents (\(error))"
        }
        guard let formatVersion else { return "it has no “formatVersion”" }
        guard seen.contains("value") else { return "it has no “value”" }
        if formatVersion > DocumentFormat.current {
            return "it says it is of format \(formatVersion), newer than this version's \(DocumentFormat.current), so it "
                + "can't be proven the app's (if a newer version of the app wrote it, use that version)"
        }
        guard formatVersion >= DocumentFormat.oldestReadable else {
            return "its format version \(formatVersion) is not one the app ever wrote"
        }
        return nil
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)

    #endif

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// What is at a path, looked at without following a link.
    enum ItemKind: Equatable {
        case regularFile
        case symbolicLink
        /// A folder, pipe, device or socket, in words.
        case other(String)
    }

    /// What is at `path` (`nil` when nothing is, or it can't be looked at).
    static func itemKind(at path: String) -> ItemKind? {
        guard let info = FileInfo.of(path: path) else { return nil }
        switch info.mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFLNK: return .symbolicLink
        default: return .other(describeKind(info.mode))
        }
    }

    /// The kind of a non-regular file, in words: "a folder", "a pipe"…
    static func describeKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFLNK: "a symbolic link"
        default: "something other than a regular file"
        }
    }

    /// Why a document of another user is not read.
    static func otherOwnerReason(_ owner: uid_t) -> String {
        "it belongs to another user (uid \(owner)), not to you (uid \(geteuid())), \(otherOwnerMarker)"
    }

    /// Why a document that is a symbolic link is not read.
    static let symbolicLinkReason =
        "it is a symbolic link, and links in the data folder are never followed; "
        + "replace the link with the file it points to, or remove it"

    /// `open`, retried while interrupted by a signal; a test may make it fail (see ``FileFaults``).
    static func openRetrying(_ call: FileFaults.Call, _ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            if let code = FileFaults.injected(call) {
                errno = code
                if code == EINTR { continue }
                return -1
            }
            let descriptor = open(path, flags, mode)
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// Opens the document at `path` for reading, as ``contents(of:limit:stamp:)`` does.
    ///
    /// On Linux with `O_NOATIME`, so that reading it does not change its access time: the
    /// document is the one a write read just before replacing it, and under `relatime` the
    /// first read of a new file would dirty its inode for the folder's sync to record. The
    /// system allows that flag only to the file's owner (else `EPERM`): a document of another
    /// user is then opened without it, and refused as before.
    static func openDocument(_ path: String) -> Int32 {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW
        while true {
            if let code = FileFaults.injected(.openDocument) {
                errno = code
                if code == EINTR { continue }
                return -1
            }
            #if os(Linux)
            var descriptor = open(path, flags | noAccessTime, 0)
            if descriptor < 0, errno == EPERM { descriptor = open(path, flags, 0) }
            #else
            let descriptor = open(path, flags, 0)
            #endif
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    #if os(Linux)
    /// `O_NOATIME` (`01000000` on Linux but for a few architectures Swift does not run on).
    private static let noAccessTime: Int32 = 0o1_000_000
    #endif

    /// Runs `call` (0 on success, else failing with `errno`) until a signal no longer interrupts
    /// it, a test's failure for `injecting` first (see ``FileFaults``); returns the failure, if any.
    static func retryingInterruptions(injecting fault: FileFaults.Call?, _ call: () -> Int32) -> String? {
        while true {
            if let fault, let code = FileFaults.injected(fault) {
                if code == EINTR { continue }
                return describe(code)
            }
            if call() == 0 { return nil }
            if errno != EINTR { return describe(errno) }
        }
    }

    /// A copy of the `size` bytes of the file open as `descriptor`, in a file of this process's
    /// own with no name, mapped read-only: its pages are read as they are used, and the system may
    /// drop them again, so a long document never sits in memory whole. `nil` where there is no
    /// such file, or when the file was not `size` bytes long while it was copied (the caller
    /// reads it instead, as it is now).
    ///
    /// The document itself is never mapped: another process that cuts it short (an editor, a
    /// copy of a backup over it) would make every later use of the mapping's pages past its new
    /// end crash the reader. Nobody else can reach a file with no name.
    static func mapPrivateCopy(of descriptor: Int32, size: Int64, nextTo document: URL) -> Data? {
        #if os(Linux)
        guard size > 0, let length = Int(exactly: size) else { return nil }
        let folder = document.deletingLastPathComponent().filePath
        let copy = open(folder, unnamedFile | O_RDWR | O_CLOEXEC, 0o600)
        guard copy >= 0 else { return nil }
        defer { close(copy) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var done = 0
        while done < length {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0, done + count <= length else { return nil }  // failed, shrank or grew
            let failed = buffer.withUnsafeBytes { bytes in
                var wroteAny = false
                return writeAll(
                    UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: done, to: copy, wroteAny: &wroteAny,
                    injecting: false)
            }
            guard failed == nil else { return nil }
            done += count
        }
        // One byte more would say the file grew meanwhile: read as it is now instead.
        var probe: UInt8 = 0
        guard pread(descriptor, &probe, 1, off_t(length)) == 0 else { return nil }
        let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, copy, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: address, count: length, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// `O_TMPFILE` (`020000000 | O_DIRECTORY` on Linux), which Glibc's module does not export.
    private static let unnamedFile: Int32 = 0o20_000_000 | O_DIRECTORY
    #endif

    /// The C library's message for an `errno` value.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
    #endif
}

extension FileStorage {
    /// The size over which a document file is mapped rather than read: 16 MiB.
    static let mapsOver: Int64 = 16 * 1_024 * 1_024

    /// The document file `file` as stored bytes, `nil` when there is none, with the slots of a
    /// two-slot file, and the `stamp` of the file read (see
    /// ``DocumentFile/contents(of:limit:mapsOver:stamp:)``).
    ///
    /// - Throws: When the file is there but could not be read (it is left as it is), including
    ///   when it is a link or belongs to another user.
    func stored(at file: URL, stamp: inout FileStamp?) throws(StorageError) -> (StoredBytes?, SlotFile.Contents?) {
        // Any size is taken: the document layer decides what is too long for the document (a
        // long one may be read as a stream). Long files are mapped, not read.
        stored(try DocumentFile.contents(of: file, limit: .max, mapsOver: Self.mapsOver, stamp: &stamp), at: file)
    }

    /// What `contents`, read from the document file `file`, holds for the document layer: the
    /// file's bytes, or for a two-slot file the envelope in its current slot (see ``SlotFile``);
    /// and the slots of a two-slot file.
    func stored(_ contents: FileContents, at file: URL) -> (StoredBytes?, SlotFile.Contents?) {
        var bytes: Data
        switch contents {
        case .missing: return (nil, nil)
        case .bytes(let data): bytes = data
        case .notARegularFile, .tooLarge: bytes = Data()
        }
        var damage = DocumentCoding.fileProblem(contents, limit: .max)
        var slots: SlotFile.Contents?
        if SlotFile.isSlotFile(bytes) {
            do {
                let found = try SlotFile.current(of: bytes)
                slots = found.contents
                bytes = found.slot.envelope
                // A current slot whose checksum holds but that holds no envelope was never written
                // whole by the library (a crash can't leave it): the other slot, when it holds
                // one, is the document's last version.
                if !DocumentFile.startsLikeADocument(bytes),
                    let other = found.contents.slots.first(where: { $0.index != found.slot.index }),
                    DocumentFile.startsLikeADocument(other.envelope)
                {
                    bytes = other.envelope
                }
            } catch {
                damage = .corrupted(reason: error.reason)
            }
        }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // Only a file in the library's format, or any file in a folder the library made for
        // itself, is moved aside when bad; the check is made only when a document is bad.
        let folder = folder
        let stored = StoredBytes(
            bytes, location: file, damage: damage,
            ownership: {
                DocumentFile.isInLibraryFormat(file) || FileStorageFolder.isOwn(folder) ? nil : FileStorage.notOursReason
            })
        #else
        let stored = StoredBytes(bytes, location: file, damage: damage)
        #endif
        return (stored, slots)
    }
}
