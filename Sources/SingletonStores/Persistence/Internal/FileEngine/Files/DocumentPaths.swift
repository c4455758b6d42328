import Foundation
import SingletonStoresLocking

/// The file and lock file of each document a ``FileStorage`` (and its copies) used, by key.
///
/// Making a `URL` costs more than the rest of a small write's bookkeeping, so each document's
/// URLs are made once, when its key is first validated, and reused by every read and write.
final class DocumentPaths: Sendable {
    /// A document's URLs.
    struct Entry {
        /// `<folder>/<key>.json`.
        let file: URL
        /// `<folder>/<key>.lock`.
        let lock: URL
        /// ``file``'s path.
        let filePath: String
        /// ``lock``'s path.
        let lockPath: String
        /// The path of this process's temporary files for the document, up to their lock part
        /// and id: `<folder>/<key>~w-` (see ``FileStorage/temporaryPath(forKey:lease:)``).
        let temporaryPrefix: String
    }

    private let entries = Locked<[String: Entry]>([:])

    /// The most keys kept: a storage uses a few. Small, because a storage shared by a thousand
    /// stores would otherwise keep two URLs for each (1.3 KiB a store); beyond it the URLs are
    /// made again, as before there was a cache.
    private static let capacity = 64

    /// The URLs of the document named `key` in `folder`.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` when `key` is not a valid store name.
    func entry(forKey key: String, in folder: URL) throws(StorageError) -> Entry {
        if let known = entries.withLock({ $0[key] }) { return known }
        let name = try StorageKey.validated(key)
        let file = folder.appending(path: "\(name).json", directoryHint: .notDirectory)
        let lock = folder.appending(path: "\(name).lock", directoryHint: .notDirectory)
        let entry = Entry(
            file: file, lock: lock, filePath: file.filePath, lockPath: lock.filePath,
            temporaryPrefix: String(file.filePath.dropLast(".json".utf8.count)) + "~" + TemporaryNames.writerPart(lockInode: nil))
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return entry
    }
}
