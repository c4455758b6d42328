#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Which files in a data folder the library wrote, for a tool of this package that removes
/// them (demo-cli's `reset`) and for tests.
///
/// The folder is opened once, through a walk that proves its path (see ``open(_:)``), and
/// every file is then looked at, read and removed relative to that descriptor: a link planted
/// in the folder's path after the check can't redirect the removal.
///
/// A file is the library's only when it proves it — its exact name, a regular file of the
/// current user with no other name, and:
/// - a document `<key>.json`: wholly the library's envelope, of a format this version reads
///   (see ``DocumentFile/envelopeProblem(ofOpen:)``);
/// - a lock file `<key>.lock`: empty, and its document is the library's — or there is no
///   document and the folder is one the library made for itself (it holds the marker file the
///   library writes in each folder it creates, see ``FileStorageFolder/isOwn(_:)``);
/// - a temporary file: named as ``TemporaryNames/writer(ofTemporary:prefix:)`` reads it
///   (`<key>~w-<16 hex digits>-<32 hex digits>.tmp`, or older versions' names) and, when named
///   as this version names them, not locked by a running writer.
///
/// Any other file of such a name is someone else's, and is named with the reason it was left.
package enum LibraryFiles {
    /// A data folder opened and checked for listing and removing the library's files.
    package final class Folder {
        fileprivate let opened: OpenFolder
        /// Whether the library made the folder for itself (see ``FileStorageFolder/isOwn(_:)``).
        fileprivate let isOwn: Bool

        fileprivate init(opened: OpenFolder) {
            self.opened = opened
            isOwn = FileStorageFolder.isOwn(opened)
        }
    }

    /// A file of the library found in a ``Folder``: its name and identity, so that it is
    /// removed only while its name still leads to that file.
    package struct File: Equatable {
        /// The file's name in the folder.
        package let name: String
        fileprivate let device: UInt64
        fileprivate let inode: UInt64
    }

    /// A file left in place, and why.
    package struct Left: Equatable {
        /// The file's name in the folder.
        package let name: String
        /// Why it is not proven the library's, as a clause ("it is a symbolic link").
        package let reason: String

        /// The file `name`, left for `reason`.
        package init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    /// Opens the data folder `folder` after proving its path (see ``FileStorageFolder``):
    /// `nil` when it does not exist.
    ///
    /// - Throws: ``StorageError/folderUnavailable(folder:reason:)`` when its path can't be
    ///   trusted, something else is in its place, or it belongs to another user.
    package static func open(_ folder: URL) throws(StorageError) -> Folder? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let walk: TrustedPath.Walk
        do { walk = try TrustedPath.walk(folder.filePath) } catch {
            throw .folderUnavailable(folder: folder, reason: error.reason)
        }
        FaultInjection.reach(.dataFolderChecked(FileStorageFolder.trimmed(folder.filePath)))
        guard case .exists(let opened, let info) = walk else { return nil }
        let me = geteuid()
        guard info.st_uid == me else {
            throw .folderUnavailable(
                folder: folder,
                reason: "it belongs to another user (uid \(info.st_uid)), not to you (uid \(me)), so its files can't be trusted")
        }
        return Folder(opened: opened)
        #else
        throw .folderUnavailable(folder: folder, reason: "its files can't be proven this app's on this system")
        #endif
    }

    /// The files of the store `key` in `folder` that the library wrote — its document
    /// `<key>.json`, its lock file `<key>.lock` and the temporary files of writers that were
    /// killed, sorted — and the files in the document's or lock file's place, or named as its
    /// temporary files, that are not proven the library's (`left`), which must be left alone.
    package static func files(forKey key: String, in folder: Folder) -> (own: [File], left: [Left]) {
        var own: [File] = []
        var left: [Left] = []
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let document = "\(key).json"
        var documentIsOurs = false
        var documentIsAbsent = false
        switch check(document, in: folder.opened, body: { DocumentFile.envelopeProblem(ofOpen: $0) }) {
        case .absent: documentIsAbsent = true
        case .own(let file):
            own.append(file)
            documentIsOurs = true
        case .left(let reason): left.append(Left(name: document, reason: reason))
        }
        let lock = "\(key).lock"
        let lockCheck = check(lock, in: folder.opened) { descriptor in
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_size == 0 else { return "it is not empty, as the app's lock files are" }
            if documentIsOurs || (documentIsAbsent && folder.isOwn) { return nil }
            return documentIsAbsent
                ? "there is no document of the app beside it, in a folder the app did not make for itself"
                : "the document beside it, \(document), is not the app's"
        }
        switch lockCheck {
        case .absent: break
        case .own(let file): own.append(file)
        case .left(let reason): left.append(Left(name: lock, reason: reason))
        }
        var names: [String] = []
        FileStorageFolder.forEachName(in: folder.opened) { name in
            if name.hasPrefix("\(key)~"), name.hasSuffix(".tmp") { names.append(name) }
            return true
        }
        for name in names.sorted() {
            let writer = TemporaryNames.writer(ofTemporary: name, prefix: "\(key)~")
            guard writer != nil, TemporaryNames.isTemporaryName(name, forKey: key) else { continue }
            let temporary = check(name, in: folder.opened) { descriptor in
                guard case .locked? = writer else { return nil }
                // This version's writers lock their temporary file while it exists.
                if FileLocks.isHeldByAWriter(descriptor) { return "a running process is writing it" }
                return nil
            }
            switch temporary {
            case .absent: break
            case .own(let file): own.append(file)
            case .left(let reason): left.append(Left(name: name, reason: reason))
            }
        }
        #endif
        return (own, left)
    }

    /// What ``remove(_:in:)`` did.
    package enum Removal: Equatable {
        /// The file was removed, or was gone already.
        case removed
        /// Its name now leads to another file, which was left alone.
        case replaced
        /// It could not be removed: the `errno` value.
        case failed(Int32)
    }

    /// Removes `file`, found by ``files(forKey:in:)`` in `folder`, if its name still leads to
    /// that very file (a link is removed, never followed).
    package static func remove(_ file: File, in folder: Folder) -> Removal {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let info = folder.opened.info(of: file.name) else { return errno == ENOENT ? .removed : .failed(errno) }
        guard UInt64(truncatingIfNeeded: info.st_dev) == file.device, UInt64(truncatingIfNeeded: info.st_ino) == file.inode
        else { return .replaced }
        return unlinkat(folder.opened.descriptor, file.name, 0) == 0 || errno == ENOENT ? .removed : .failed(errno)
        #else
        return .failed(ENOSYS)
        #endif
    }

    /// Flushes `folder`'s names to the disk, so that the removals made in it survive a power cut;
    /// the `errno` value of the failure, if any.
    package static func flush(_ folder: Folder) -> Int32? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // The folder's descriptor may be one to find names through only (`O_PATH`): a descriptor
        // of the same folder, opened for reading, is flushed.
        let readable = folder.opened.readable()
        guard readable >= 0 else { return errno }
        defer { close(readable) }
        return DocumentFile.syncNames(ofFolder: readable)
        #else
        return nil
        #endif
    }

    /// Marks `folder`, an existing folder of the current user, as one the library made for
    /// itself (see ``FileStorageFolder/isOwn(_:)``), as if it had created it.
    package static func markAsOwn(_ folder: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let opened = OpenFolder.at(folder.filePath), FileStorageFolder.adopt(opened) else {
            throw .folderUnavailable(folder: folder, reason: "it could not be marked as this library's own")
        }
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// What ``check(_:in:body:)`` found.
    private enum Check {
        case absent
        case own(File)
        case left(String)
    }

    /// Looks at `name` in `folder` without following a link: absent, or the library's when it
    /// is a regular file of the current user with no other name and `body`, given it open for
    /// reading, finds no reason it is not (`nil`); else left, with the reason.
    private static func check(_ name: String, in folder: OpenFolder, body: (Int32) -> String?) -> Check {
        guard let seen = folder.info(of: name) else {
            return errno == ENOENT ? .absent : .left("it can't be looked at (\(DocumentFile.describe(errno)))")
        }
        let me = geteuid()
        // Looked at before it is opened: opening anything else (a device, a FIFO) could act.
        switch seen.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: return .left("it is a symbolic link")
        default: return .left("it is \(DocumentFile.describeKind(seen.st_mode)), not a regular file")
        }
        guard seen.st_uid == me else { return .left("it belongs to another user (uid \(seen.st_uid))") }
        guard seen.st_nlink == 1 else { return .left("it has other names (hard links)") }
        let descriptor = openat(folder.descriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 { return .left("it can't be opened (\(DocumentFile.describe(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_dev == seen.st_dev, info.st_ino == seen.st_ino else {
            return .left("it was replaced while being looked at")
        }
        if let reason = body(descriptor) { return .left(reason) }
        return .own(
            File(
                name: name, device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)))
    }
    #endif
}
