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
/// A file is the library's only when it proves it: its exact name, a regular file of the
/// current user with no other name, and the library's format — a document starts as the
/// library's envelope does (see ``DocumentFile/isInLibraryFormat(_:)``), a lock file is empty,
/// a temporary file is named as ``TemporaryNames/writer(ofTemporary:prefix:)`` reads it:
/// `<key>~<pid>-<16 hex digits>-<32 hex digits>.tmp`, or `<key>~<pid>-<32 hex digits>.tmp` and
/// `<key>~<32 hex digits>.tmp` as older versions named them. A file of the same name that is not is someone else's.
package enum LibraryFiles {
    /// The names of the files of the store `key` in `folder` that the library wrote: its
    /// document `<key>.json`, its lock file `<key>.lock` and the temporary files of writers that
    /// were killed, sorted; and the names of the files in the document's or lock file's place
    /// that are not the library's (`foreign`), which must be left alone.
    package static func files(forKey key: String, in folder: URL) -> (own: [String], foreign: [String]) {
        var own: [String] = []
        var foreign: [String] = []
        let document = "\(key).json"
        let documentURL = folder.appending(path: document, directoryHint: .notDirectory)
        if DocumentFile.exists(documentURL) {
            if DocumentFile.isInLibraryFormat(documentURL) { own.append(document) } else { foreign.append(document) }
        }
        let lock = "\(key).lock"
        let lockURL = folder.appending(path: lock, directoryHint: .notDirectory)
        if DocumentFile.exists(lockURL) {
            if isEmptyOwnFile(lockURL) { own.append(lock) } else { foreign.append(lock) }
        }
        for name in TemporaryNames.candidates(in: folder, prefix: "\(key)~").sorted()
        where TemporaryNames.isTemporaryName(name, forKey: key)
            && FileStorage.isOwnPlainFile(folder.appending(path: name, directoryHint: .notDirectory))
        {
            own.append(name)
        }
        return (own, foreign)
    }

    /// Marks `folder`, an existing folder of the current user, as one the library made for
    /// itself (see ``FileStorageFolder/isOwn(_:)``), as if it had created it.
    package static func markAsOwn(_ folder: URL) throws(StorageError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        guard stat(folder.filePath, &info) == 0, FileStorageFolder.adopt(folder, expected: info) else {
            throw .folderUnavailable(folder: folder, reason: "it could not be marked as this library's own")
        }
        #endif
    }

    /// Whether `url` is an empty regular file of the current user with no other name: a lock file.
    private static func isEmptyOwnFile(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        guard lstat(url.filePath, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid() && info.st_nlink == 1 && info.st_size == 0
        #else
        return true
        #endif
    }
}
