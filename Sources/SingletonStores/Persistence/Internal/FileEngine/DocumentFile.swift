#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A lock taken by ``DocumentFile/withExclusiveLock(on:waiting:_:)``, valid inside its body.
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
}

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
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStamp(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
        #else
        return nil
        #endif
    }
}

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
/// replacement, and an advisory exclusive lock.
///
/// On Glibc, Musl and Darwin these are POSIX calls. Documents, lock files and temporary files
/// are opened with `O_NOFOLLOW`: a symbolic link in their place is refused, never followed.
/// Files are created `0600` whatever the process's umask (`fchmod` after creating). Writes go
/// to a temporary file in the same folder, are `fsync`ed, then `rename`d over the target; the
/// lock is `flock(LOCK_EX)` on a lock file, which belongs to the open file description, so it
/// excludes other processes, other ``FileStorage`` instances and other threads alike.
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

    /// The size of the regular file at `url` (a link is not followed); `nil` when there is
    /// none, or something else is there.
    static func size(of url: URL) -> Int64? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        guard lstat(url.filePath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
        #else
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.filePath)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else { return nil }
        return (attributes?[.size] as? NSNumber)?.int64Value
        #endif
    }

    /// Opens the document at `url` as ``contents(of:limit:)`` does (a link or anything but a
    /// regular file is refused) and runs `body` with a stream of it, read a chunk at a time.
    ///
    /// - Throws: ``StorageError/readFailed(file:reason:)`` when the file could not be opened
    ///   or read (it is left as it is), or what `body` threw.
    static func stream<Result>(of url: URL, _ body: (inout DocumentStream) throws -> Result) throws -> Result {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = openRetrying(.openDocument, url.filePath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        if descriptor < 0 { throw StorageError.readFailed(file: url, reason: describe(errno)) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw StorageError.readFailed(file: url, reason: describe(errno)) }
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw StorageError.readFailed(file: url, reason: "it is \(describeKind(info.st_mode)), not a regular file")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        #else
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw StorageError.readFailed(file: url, reason: error.localizedDescription)
        }
        defer { try? handle.close() }
        #endif
        var stream = DocumentStream(handle: handle)
        do {
            return try body(&stream)
        } catch let failure as DocumentStream.ReadFailure {
            throw StorageError.readFailed(file: url, reason: failure.reason)
        }
    }

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
    /// of the file it opened (`fstat` of the descriptor read from, so exactly that file), or,
    /// when nothing could be opened, of what is at the path as it failed (`nil` when nothing is).
    static func contents(of url: URL, limit: Int64 = maximumSize, stamp: inout FileStamp?) throws(StorageError)
        -> FileContents
    {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let path = url.filePath
        // O_NONBLOCK: a FIFO in place of the document must not block the open; it fails the
        // regular-file check. O_NOFOLLOW: a link in place of the document is refused.
        let descriptor = openDocument(path)
        if descriptor < 0 {
            let code = errno
            stamp = nil
            if code == ENOENT { return .missing }
            stamp = FileStamp.of(url)
            switch itemKind(at: path) {
            case .symbolicLink: throw .readFailed(file: url, reason: symbolicLinkReason)
            case .other(let kind): return .notARegularFile(kind: kind)
            case .regularFile, .none: throw .readFailed(file: url, reason: describe(code))
            }
        }
        defer { close(descriptor) }
        var info = stat()
        if let code = FileFaults.injected(.fstat) ?? (fstat(descriptor, &info) == 0 ? nil : errno) {
            throw .readFailed(file: url, reason: describe(code))
        }
        stamp = FileStamp(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
        if info.st_uid != geteuid() { throw .readFailed(file: url, reason: otherOwnerReason(info.st_uid)) }
        if (info.st_mode & S_IFMT) != S_IFREG { return .notARegularFile(kind: describeKind(info.st_mode)) }
        let size = Int64(info.st_size)
        if size > limit { return .tooLarge(size: size) }
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
                count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .readFailed(file: url, reason: describe(code))
            }
            if count == 0 { return .bytes(data) }
            data.append(contentsOf: buffer[0..<count])
            if Int64(data.count) > limit { return .tooLarge(size: Int64(data.count)) }  // it grew meanwhile
            // The whole file as `fstat` measured it, by a read that did not fill the buffer:
            // at its end (a file that grew meanwhile fills one more byte, and is read on).
            if Int64(data.count) == size, count < buffer.count { return .bytes(data) }
        }
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

    /// Writes `data` to the new file `temporary` (permissions `0600`) and flushes it to disk.
    ///
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` naming `document`; the temporary
    ///   file is then removed and the document is untouched.
    static func writeTemporary(_ data: Data, at temporary: URL, for document: URL) throws(StorageError) {
        try writeTemporary(data, atPath: temporary.filePath, for: document)
    }

    /// ``writeTemporary(_:at:for:)`` of the file at the path `temporary`.
    static func writeTemporary(_ data: Data, atPath temporary: String, for document: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = openRetrying(
            .openTemporary, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 { throw .writeFailed(file: document, reason: describe(errno)) }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = describe(errno) }  // the umask narrowed the mode
        if failure == nil { failure = writeAll(data, to: descriptor) }
        if failure == nil, let code = FileFaults.injected(.fsync) ?? (fsync(descriptor) == 0 ? nil : errno) {
            failure = describe(code)
        }
        if close(descriptor) != 0, failure == nil { failure = describe(errno) }
        if let failure {
            unlink(temporary)
            throw .writeFailed(file: document, reason: failure)
        }
        #else
        let temporaryFile = URL(filePath: temporary, directoryHint: .notDirectory)
        do { try data.write(to: temporaryFile, options: .withoutOverwriting) } catch {
            try? FileManager.default.removeItem(at: temporaryFile)
            throw .writeFailed(file: document, reason: error.localizedDescription)
        }
        #endif
    }

    /// Writes `data` to the new file `temporary` (permissions `0600`), as
    /// ``writeTemporary(_:atPath:for:)`` does, holding an exclusive `flock` lock on it from its
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
        let descriptor = openRetrying(
            .openTemporary, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 { throw .writeFailed(file: document, reason: describe(errno)) }
        // Between the creation and the lock, a sweeper may take the new, unlocked file for a
        // killed writer's: it removes it only while holding its lock. Once locked here, the
        // file is still in the folder unless it was removed meanwhile.
        if lockRetrying(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }  // a sweeper holds it, to remove it
            unlink(temporary)
            throw .writeFailed(file: document, reason: describe(code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_nlink > 0 else {
            close(descriptor)
            return nil
        }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = describe(errno) }  // the umask narrowed the mode
        if failure == nil { failure = writeAll(data, to: descriptor) }
        if failure == nil, let code = FileFaults.injected(.fsync) ?? (fsync(descriptor) == 0 ? nil : errno) {
            failure = describe(code)
        }
        if let failure {
            unlink(temporary)
            close(descriptor)
            throw .writeFailed(file: document, reason: failure)
        }
        return descriptor
        #else
        try writeTemporary(data, atPath: temporary, for: document)
        return -1
        #endif
    }

    /// Closes the descriptor of a temporary file that ``writeLockedTemporary(_:atPath:for:)``
    /// returned, releasing its lock: call it once the file was renamed or removed.
    static func releaseTemporary(_ descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if descriptor >= 0 { close(descriptor) }
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
        defer { close(descriptor) }
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

    /// Renames `source` to `destination`, replacing it; a symbolic link at either is renamed
    /// itself, never followed.
    ///
    /// - Returns: Why the rename failed, or `nil` when it succeeded. On failure nothing moved.
    static func renameItem(_ source: URL, to destination: URL) -> String? {
        renameItem(atPath: source.filePath, to: destination)
    }

    /// ``renameItem(_:to:)`` of the file at the path `source`.
    static func renameItem(atPath source: String, to destination: URL) -> String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if let code = FileFaults.injected(.rename) { return describe(code) }
        let target = destination.filePath
        if rename(source, target) != 0 { return describe(errno) }
        syncFolder(of: target)
        return nil
        #else
        let sourceFile = URL(filePath: source, directoryHint: .notDirectory)
        do {
            if FileManager.default.fileExists(atPath: destination.filePath) {
                _ = try FileManager.default.replaceItemAt(destination, withItemAt: sourceFile)
            } else {
                try FileManager.default.moveItem(at: sourceFile, to: destination)
            }
            return nil
        } catch {
            return error.localizedDescription
        }
        #endif
    }

    /// Whether anything (file, folder, dangling link) is at `url`.
    static func exists(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        return lstat(url.filePath, &info) == 0 || errno != ENOENT
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
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
            info.st_nlink == 1
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
    static func envelopeProblem(ofOpen descriptor: Int32) -> String? {
        struct NotOurs: Error { let reason: String }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        var stream = DocumentStream(handle: handle)
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
    /// - Returns: What `body` returned, or `nil` when `wait` is ``LockWait/never`` and another
    ///   holds the lock (then `body` did not run).
    /// - Throws: ``StorageError/lockTimedOut(file:holder:waited:)`` when the lock stayed held
    ///   without progress for the whole wait, ``StorageError/lockFailed(file:reason:)`` when it
    ///   could not be taken at all, or what `body` threw.
    static func withExclusiveLock<Result>(
        on lockFile: URL,
        waiting wait: LockWait,
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
            let (descriptor, identity) = try openLockFile(lockFile, path: lockPath)
            defer { unlockAndClose(descriptor) }
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
            // Locked. Is this still the file others open under that name?
            let lease = LockLease(file: lockFile, descriptor: descriptor, identity: identity, path: lockPath)
            if lease.isStillHeld {
                served = true
                return try body(lease)
            }
        }
        #else
        return try body(LockLease(file: lockFile, descriptor: -1, identity: nil, path: lockFile.filePath))
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Takes `flock(LOCK_EX)` on `descriptor`, polling with `LOCK_NB` and short sleeps while
    /// another holds it, until `patience` runs out.
    ///
    /// - Returns: `true` when locked; `false` when `patience` is `nil` (no wait) and the lock is
    ///   held.
    /// - Throws: ``StorageError/lockTimedOut(file:holder:waited:)`` or
    ///   ``StorageError/lockFailed(file:reason:)``.
    private static func poll(
        _ descriptor: Int32, lockFile: URL, patience: inout LockPatience?, injecting: Bool
    ) throws(StorageError) -> Bool {
        var pause = Duration.milliseconds(1)
        while true {
            let injected = injecting ? FileFaults.injected(.flock) : nil
            let code = injected ?? (flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? nil : errno)
            guard let code else { return true }
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                throw .lockFailed(file: lockFile, reason: describe(code))
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

    /// Lets go of the lock on `descriptor`, if it holds one, then closes it: explicitly, so
    /// that a copy of the descriptor in a child process being started does not keep the lock.
    private static func unlockAndClose(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The error of a wait that ran out of `patience`, naming the holder where the system tells.
    private static func timedOut(_ lockFile: URL, _ patience: LockPatience) -> StorageError {
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
    private static func openTurnstile(for lockPath: String, creating: Bool) -> Int32 {
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
    private static func openLockFile(_ lockFile: URL, path: String) throws(StorageError) -> (Int32, FileStamp) {
        // Read-only is enough for flock, and still opens a lock file an older version left `0400`.
        // Not blocking (which `flock` ignores): a FIFO in its place would otherwise wait for a
        // writer forever, where it must be refused as not a regular file.
        let descriptor = openRetrying(.openLock, path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if descriptor < 0 {
            let code = errno
            if itemKind(at: path) == .symbolicLink {
                throw .lockFailed(
                    file: lockFile,
                    reason: "it is a symbolic link, which is never followed; quit every process that uses this "
                        + "folder, then remove the link (a lock file holds no data)")
            }
            throw .lockFailed(file: lockFile, reason: describe(code))
        }
        var info = stat()
        if fstat(descriptor, &info) != 0 {
            let code = errno
            close(descriptor)
            throw .lockFailed(file: lockFile, reason: describe(code))
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            close(descriptor)
            throw .lockFailed(
                file: lockFile,
                reason: "it is \(describeKind(info.st_mode)), not a regular file; quit every process that uses "
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
    private static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) * 1e-18)
    }
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
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFLNK: return .symbolicLink
        default: return .other(describeKind(info.st_mode))
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

    /// `flock`, retried while interrupted by a signal.
    private static func lockRetrying(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = flock(descriptor, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// `open`, retried while interrupted by a signal; a test may make it fail (see ``FileFaults``).
    private static func openRetrying(_ call: FileFaults.Call, _ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
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
    private static func openDocument(_ path: String) -> Int32 {
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

    /// Writes all of `data`, retrying short writes; returns the failure, if any.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var offset = 0
            while offset < bytes.count {
                let written: Int
                if let code = FileFaults.injected(.write) {
                    errno = code
                    written = -1
                } else {
                    written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                }
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    return describe(code)
                }
                offset += written
            }
            return nil
        }
    }

    /// Flushes the folder entry of the file at `path` so a rename survives a power cut; best
    /// effort.
    private static func syncFolder(of path: String) {
        let parent = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let folder = open(parent, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NONBLOCK)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// The C library's message for an `errno` value.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
    #endif
}
