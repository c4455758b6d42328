import Foundation

/// One transaction of ``FileStorage`` on the document of a key: lock → read → decide → write,
/// and again after a lost lock. The one place where a document file is changed: every load that
/// sets a bad document aside or rewrites a migrated one, every save and every update of a
/// ``FileStorage`` is one of these.
struct FileTransaction {
    let storage: FileStorage
    let key: String
    /// Whether to wait up to the storage's lock timeout for another writer (else give up at once).
    let waits: Bool

    /// Locks the document, reads it, lets `body` decide, and commits the decision before the
    /// lock is released; `nil` when the transaction does not wait and the lock is held.
    ///
    /// A transaction whose lock file was removed or replaced before it committed, or that found
    /// another writer still committing under the lock file it held before, is run again under
    /// the new lock, after a short pause (``LostLockRetry``).
    func run<Result>(
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        let file = try storage.fileURL(forKey: key)
        let wait: DocumentFile.LockWait = waits ? .upTo(storage.lockTimeout, document: file) : .never
        _ = try FileStorageFolder.prepare(
            storage.folder, path: storage.folderPath, creating: true, report: storage.reportNotice)
        var retry = LostLockRetry(limit: wait.limit)
        while true {
            var notices: [StorageNotice] = []
            let attempt = try DocumentFile.withExclusiveLock(on: storage.lockURL(forKey: key), waiting: wait) {
                (lease: LockLease) throws(StorageError) -> WriteAttempt<DocumentCommit<Result>> in
                // The stamp of the file read: the write commits only while the document is still it.
                var read: FileStamp?
                let current = try storage.stored(at: file, stamp: &read)
                let decision = try body(current)
                let change = decision.change
                if let bytes = change.bytes {
                    // The write's own listing removes the temporary files of writers that are gone.
                    return try storage.write(
                        bytes, to: file, key: key, replacing: change.settingAside, backup: change.backup, lease: lease,
                        read: read, notices: &notices
                    ).map { recovery in DocumentCommit(decision.result, keptAt: recovery?.keptFile) }
                }
                storage.removeStaleTemporaries(forKey: key, holding: lease)
                let kept = try change.settingAside.map { problem throws(StorageError) in
                    try storage.keepAside(file, key: key, problem: problem).keptFile
                }
                return .done(DocumentCommit(decision.result, keptAt: kept ?? nil))
            }
            notices.forEach(storage.reportNotice)
            switch attempt {
            case nil: return nil
            case .done(let commit)?: return commit
            case let lost?: guard try retry.pause(after: lost) else { return nil }
            }
        }
    }
}
