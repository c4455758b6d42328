#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What reading a document file found.
enum FileContents {
    /// There is no file at the path.
    case missing
    /// The file's bytes.
    case bytes(Data)
    /// Something is at the path but it could not be read.
    case unreadable(reason: String)
}

/// The file-system primitives ``FileStorage`` is built on: whole-file reads, atomic
/// replacement, and an advisory exclusive lock.
///
/// On Glibc, Musl and Darwin these are POSIX calls: writes go to a `0600` temporary file in
/// the same folder, are `fsync`ed, then `rename`d over the target; the lock is `flock(LOCK_EX)`
/// on a lock file, which belongs to the open file description, so it excludes other
/// processes, other ``FileStorage`` instances and other threads alike.
///
/// On a platform with none of these C libraries, writes fall back to Foundation's atomic
/// write and the lock does nothing: updates are then not protected against concurrent
/// writers (documented on ``FileStorage``).
enum DocumentFile {
    /// Reads the whole file at `url`.
    static func contents(of url: URL) -> FileContents {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // O_NONBLOCK: a FIFO in place of the document must not block the open; it fails the regular-file check.
        let descriptor = open(url.filePath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            return code == ENOENT ? .missing : .unreadable(reason: describe(code))
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) != 0 { return .unreadable(reason: describe(errno)) }
        if (info.st_mode & S_IFMT) != S_IFREG { return .unreadable(reason: "it is not a regular file") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                return .unreadable(reason: describe(code))
            }
            if count == 0 { return .bytes(data) }
            data.append(contentsOf: buffer[0..<count])
        }
        #else
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.filePath, isDirectory: &isFolder) else {
            return .missing
        }
        if isFolder.boolValue { return .unreadable(reason: "it is not a regular file") }
        do { return .bytes(try Data(contentsOf: url)) } catch {
            return .unreadable(reason: error.localizedDescription)
        }
        #endif
    }

    /// Replaces the file at `url` with `data`, atomically: readers see the old file or the new
    /// one, never a mix, and a crash leaves at most a stray `temporary` file behind.
    static func replace(_ url: URL, with data: Data, temporary: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = open(temporary.filePath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 { throw .writeFailed(file: url, reason: describe(errno)) }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = describe(errno) }
        if failure == nil { failure = writeAll(data, to: descriptor) }
        if failure == nil, fsync(descriptor) != 0 { failure = describe(errno) }
        if close(descriptor) != 0, failure == nil { failure = describe(errno) }
        if failure == nil, rename(temporary.filePath, url.filePath) != 0 { failure = describe(errno) }
        if let failure {
            unlink(temporary.filePath)
            throw .writeFailed(file: url, reason: failure)
        }
        syncFolder(of: url)
        #else
        do { try data.write(to: url, options: .atomic) } catch {
            throw .writeFailed(file: url, reason: error.localizedDescription)
        }
        #endif
    }

    /// Renames `source` to `destination`; the caller has checked that `destination` is free.
    static func move(_ source: URL, to destination: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if rename(source.filePath, destination.filePath) != 0 {
            throw .writeFailed(file: source, reason: "it could not be moved aside: \(describe(errno))")
        }
        syncFolder(of: destination)
        #else
        do { try FileManager.default.moveItem(at: source, to: destination) } catch {
            throw .writeFailed(file: source, reason: "it could not be moved aside: \(error.localizedDescription)")
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

    /// Removes the file at `url`, ignoring failures.
    static func remove(_ url: URL) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        unlink(url.filePath)
        #else
        try? FileManager.default.removeItem(at: url)
        #endif
    }

    /// Runs `body` while holding an exclusive advisory lock on the file at `lockFile`
    /// (created `0600` if needed, never deleted).
    static func withExclusiveLock<Result>(
        on lockFile: URL,
        _ body: () throws(StorageError) -> Result
    ) throws(StorageError) -> Result {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = open(lockFile.filePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 { throw .lockFailed(file: lockFile, reason: describe(errno)) }
        defer { close(descriptor) }  // closing the descriptor releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            let code = errno
            if code != EINTR { throw .lockFailed(file: lockFile, reason: describe(code)) }
        }
        return try body()
        #else
        return try body()
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Writes all of `data`, retrying short writes; returns the failure, if any.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
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

    /// Flushes the folder entry of `url` so a rename survives a power cut; best effort.
    private static func syncFolder(of url: URL) {
        let folder = open(url.deletingLastPathComponent().filePath, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// The C library's message for an `errno` value.
    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
    #endif
}
