#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// Every write, flush, fill and rename of a document or a temporary file, and the folder flush
// after a rename: the system calls that change what is on the disk live here, in the room that
// decides when they run (the layout test holds it). `DocumentFile.swift` reads; `FileLocks` locks.
extension DocumentFile {
    /// ``writeTemporary(_:at:for:)`` of the file at the path `temporary`.
    static func writeTemporary(_ data: Data, atPath temporary: String, for document: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let descriptor = openRetrying(
            .openTemporary, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 { throw .writeFailed(file: document, reason: describe(errno)) }
        var failure = writeThenSync(data, toTemporary: descriptor)
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

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Writes all of `data` at the file's position (`write`), retrying short writes; returns the
    /// failure, if any.
    static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        var wroteAny = false
        return data.withUnsafeBytes { writeAll($0, at: nil, to: descriptor, wroteAny: &wroteAny) }.map(describe)
    }

    /// Writes all of `bytes` to the file open as `descriptor` — at `offset` (`pwrite`), or at the
    /// file's position when it is `nil` (`write`) — retrying short writes and interrupted calls;
    /// returns the `errno` of the failure, if any, and sets `wroteAny` when any byte was written.
    /// A test's injected failure for ``FileFaults/Call/write`` applies to each call, unless
    /// `injecting` is false (see ``fill(_:of:)``).
    static func writeAll(
        _ bytes: UnsafeRawBufferPointer, at offset: Int?, to descriptor: Int32, wroteAny: inout Bool,
        injecting: Bool = true
    ) -> Int32? {
        var done = 0
        while done < bytes.count {
            let written: Int
            if injecting, let code = FileFaults.injected(.write) {
                errno = code
                written = -1
            } else {
                let start = bytes.baseAddress.map { $0 + done }
                written =
                    if let offset { pwrite(descriptor, start, bytes.count - done, off_t(offset + done)) } else {
                        write(descriptor, start, bytes.count - done)
                    }
                if written > 0 { wroteAny = true }
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                return code
            }
            done += written
        }
        return nil
    }

    /// Flushes the folder entry of the file at `path` so a rename survives a power cut.
    ///
    /// - Returns: Why the folder could not be flushed, or `nil` when it was.
    static func syncFolder(of path: String) -> String? {
        let parent = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let folder = open(parent, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NONBLOCK)
        guard folder >= 0 else { return describe(errno) }
        defer { close(folder) }
        return retryingInterruptions(injecting: .syncFolder) { fsync(folder) }
    }

    /// Opens the document at `path` to write it in place: read and write, not following a link,
    /// and only when it is still the file `expected` (the one read under the lock) and has no
    /// other name (see ``hasOneName(_:)``), both checked by one look at the new descriptor (``FileInfo``).
    ///
    /// - Returns: The descriptor, or why it could not be opened.
    static func openForWritingInPlace(_ path: String, expected: FileStamp) -> Result<(Int32, owner: UInt32), WriteInPlaceFailure>
    {
        let descriptor = openRetrying(.openForWriting, path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        if descriptor < 0 { return .failure(.notWritten(describe(errno))) }
        guard let info = FileInfo.of(descriptor: descriptor), info.stamp == expected else {
            close(descriptor)
            return .failure(.replaced)
        }
        guard info.links == 1 else {
            close(descriptor)
            return .failure(.anotherName)
        }
        // Documents are the user's alone: a mode loosened by hand is narrowed again, as a write
        // the rename way makes a fresh 0600 file.
        if info.mode & 0o777 != 0o600, fchmod(descriptor, 0o600) != 0 {
            let reason = describe(errno)
            close(descriptor)
            return .failure(.notWritten(reason))
        }
        return .success((descriptor, UInt32(info.owner)))
    }

    /// Marks the document at `path`, which a writer holding its lock is about to set aside, as
    /// moved (``SlotFile/isMarkedMoved(_:)``), so that a descriptor another transaction kept
    /// open for writing on it (``KeptFiles``) is not written through once it is elsewhere: a
    /// move leaves the file its one name, which is what the kept descriptor's look checks.
    ///
    /// Only a two-slot file is marked: a descriptor is kept for writing on no other. One that
    /// can't be opened for writing is left as it is: its mode is not `0600`, and a kept
    /// descriptor is not written through unless it is. The mark needs no flush: it is for
    /// processes running now, whose descriptors a restart closes.
    static func markMoved(_ path: String) {
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: SlotFile.signature.count)
        guard let info = FileInfo.of(descriptor: descriptor), info.isRegularFile, info.size > SlotFile.movedMarkOffset,
            start.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, $0.count, 0) }) == start.count,
            SlotFile.isSlotFile(start)
        else { return }
        var tab = UInt8(ascii: "\t")
        _ = pwrite(descriptor, &tab, 1, off_t(SlotFile.movedMarkOffset))
    }

    /// Why a write in place did not commit.
    enum WriteInPlaceFailure: Error {
        /// Another file is at the document's path now: nothing was written.
        case replaced
        /// The document has another name too now (a hard link): nothing was written.
        case anotherName
        /// Nothing was written, for this reason.
        case notWritten(String)
    }

    /// Writes all of `bytes` at `offset` of the file open as `descriptor` (`pwrite`); see
    /// ``writeAll(_:at:to:wroteAny:injecting:)``. Returns the `errno` of the failure, if any.
    static func writeAll(_ bytes: [UInt8], at offset: Int, to descriptor: Int32, injecting: Bool = true) -> Int32? {
        var wroteAny = false
        return bytes.withUnsafeBytes {
            writeAll($0, at: offset, to: descriptor, wroteAny: &wroteAny, injecting: injecting)
        }
    }

    /// Whether the file open as `descriptor` has one name only: a file with another name too (a
    /// backup tool's hard link, say) is never written in place, which would change the other
    /// name's bytes. Checked on the descriptor that writes, just before each write.
    static func hasOneName(_ descriptor: Int32) -> Bool {
        FileInfo.of(descriptor: descriptor)?.links == 1
    }

    /// Writes `marker` into the file open as `descriptor` and flushes it, best effort and with no
    /// injected failures (a test's faults are for the write it reports on); not when the file has
    /// another name now (see ``hasOneName(_:)``).
    static func fill(_ marker: InPlaceWrite, of descriptor: Int32) {
        guard hasOneName(descriptor), writeAll(marker.bytes, at: marker.offset, to: descriptor, injecting: false) == nil
        else { return }
        _ = syncData(descriptor, injecting: false)
    }

    /// Flushes the data of the file open as `descriptor` to the disk: `fdatasync` (on Apple
    /// platforms `F_FULLFSYNC`, which also empties the drive's cache); returns the failure, if any.
    ///
    /// With `injecting` false, no failure a test injects applies (see ``fill(_:of:)``).
    static func syncData(_ descriptor: Int32, injecting: Bool = true) -> String? {
        retryingInterruptions(injecting: injecting ? .fsync : nil) {
            #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
            return errno == ENOTSUP || errno == EINVAL ? fsync(descriptor) : -1
            #else
            return fdatasync(descriptor)
            #endif
        }
    }

    /// Narrows the temporary file open as `descriptor` to the user's alone (the umask may have
    /// narrowed it otherwise), writes all of `data` into it and flushes it: the one
    /// write-then-sync of every temporary file, a document's or a lock's. Returns the failure, if any.
    static func writeThenSync(_ data: Data, toTemporary descriptor: Int32) -> String? {
        if fchmod(descriptor, 0o600) != 0 { return describe(errno) }
        if let failure = writeAll(data, to: descriptor) { return failure }
        if let code = FileFaults.injected(.fsync) ?? (fsync(descriptor) == 0 ? nil : errno) { return describe(code) }
        return nil
    }

    /// Flushes the names of the folder open for reading as `descriptor` to the disk, retrying
    /// interrupted calls; the `errno` of the failure, if any.
    static func syncNames(ofFolder descriptor: Int32) -> Int32? {
        while fsync(descriptor) != 0 {
            if errno != EINTR { return errno }
        }
        return nil
    }

    /// Writes `text` into the new file open as `descriptor`, best effort and with no injected
    /// failures (a folder's marker file, whose presence is what counts).
    static func writeMarker(_ text: [UInt8], to descriptor: Int32) {
        var wroteAny = false
        _ = text.withUnsafeBytes { writeAll($0, at: nil, to: descriptor, wroteAny: &wroteAny, injecting: false) }
    }
    #endif

    /// Renames `source` to `destination`, replacing it; a symbolic link at either is renamed
    /// itself, never followed.
    ///
    /// - Returns: Why the rename failed, or `nil` when it succeeded. On failure nothing moved.
    static func renameItem(_ source: URL, to destination: URL) -> String? {
        renameItem(atPath: source.filePath, to: destination)
    }

    /// ``renameItem(_:to:)`` of the file at the path `source`.
    ///
    /// With `flushing` (the default), the folder is then flushed, best effort: a caller that must
    /// know the rename is durable passes `false` and calls ``flushFolder(of:)``.
    static func renameItem(atPath source: String, to destination: URL, flushing: Bool = true) -> String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if let code = FileFaults.injected(.rename) { return describe(code) }
        let target = destination.filePath
        if rename(source, target) != 0 { return describe(errno) }
        if flushing { _ = syncFolder(of: target) }
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

    /// Flushes the folder of `file` to the disk, so that a rename into it survives a power cut.
    ///
    /// - Returns: Why it could not be flushed, or `nil` when it was (or where there is no
    ///   `fsync`).
    static func flushFolder(of file: URL) -> String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        syncFolder(of: file.filePath)
        #else
        nil
        #endif
    }
}
