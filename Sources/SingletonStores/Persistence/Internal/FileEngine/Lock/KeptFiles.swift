#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SingletonStoresLocking
import Synchronization
import Foundation

/// The files a ``FileStorage`` (and its copies) keeps open between its transactions, so that the
/// next transaction of the same document does not open them again: each key's lock file, and
/// the document — open for reading and writing when the last transaction wrote it in place (the
/// descriptor that wrote), else for reading only, as that transaction read it.
///
/// A kept descriptor is never locked while it is kept, and is used by one transaction at a time:
/// the one whose turn it is in the key's ``LockQueue`` takes it (``take(_:)``) and gives it back
/// at its end (``keep(_:descriptor:stamp:writable:owner:)``).
///
/// - A document kept open for writing is written through without a look at any path: the
///   document's own lock, one look at the descriptor (one name, the same owner, mode `0600`)
///   and the read (not marked as set aside) are its checks
///   (``OpenedDocument/lockKept(_:file:storage:)``). A long-lived store's update is then six
///   system calls: `flock`, a look, `pread`, `pwrite`, `fdatasync`, `flock` to let go.
/// - Any other use checks the kept file again under the lock, against what is at the path now:
///   the lock file's path must still name the kept lock file, which must still be the user's
///   and have one name, and the document's path the kept document (``OpenedDocument``);
///   otherwise the kept descriptor is closed and the path opened anew, as a first transaction
///   does.
///
/// A watcher hears a write through a kept descriptor by the write itself (`IN_MODIFY`), not by a
/// close. The owner checked is the one the file had when it was kept: a process that changes
/// its effective user keeps writing the documents it opened before, as it would through any
/// descriptor it holds.
///
/// Bounded, so that a process with a thousand stores keeps a flat count of descriptors: at most
/// 16 are kept in the whole process (``Budget/process``), by the documents written first; the
/// others are opened at each transaction, as before. A storage's are closed once its last copy is
/// gone (with the last store that uses it). A child process that `fork` made without `exec`
/// shares them with its parent, so it never uses them: it would share the parent's locks too.
final class KeptFiles: Sendable {
    private struct Kept {
        let file: KeptFile
        /// ``KeptFiles/forkGeneration`` when it was kept.
        let generation: UInt64
    }

    /// A descriptor kept open between transactions, and what the transaction that kept it knew
    /// of its file.
    struct KeptFile {
        let descriptor: Int32
        /// The file it is open on.
        let stamp: FileStamp
        /// Whether it is open for writing too: a document's, kept by the transaction that wrote
        /// it in place, which the next transaction may write through without opening anything
        /// (see ``FileTransaction``'s way on a kept document).
        let writable: Bool
        /// The file's owner when it was kept (this process's user then).
        let owner: UInt32
    }

    /// Path → the file kept open under it.
    private let files = Locked<[String: Kept]>([:])

    /// How many descriptors may be kept at once, and how many are: shared by every storage of
    /// the process (``process``); a test gives its storage one of its own.
    final class Budget: Sendable {
        /// The most descriptors kept at once.
        let capacity: Int
        /// Descriptors kept now.
        fileprivate let count = Atomic<Int>(0)

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The process's: 16 descriptors, two a document being written (its lock file and itself).
        static let process = Budget(capacity: 16)

        /// Counts one more kept descriptor; `false` when there is no room for it.
        fileprivate func reserve() -> Bool {
            var current = count.load(ordering: .relaxed)
            while current < capacity {
                let (exchanged, original) = count.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
                if exchanged { return true }
                current = original
            }
            return false
        }

        /// Counts one kept descriptor fewer.
        fileprivate func release() {
            count.subtract(1, ordering: .relaxed)
        }

        /// Descriptors kept now.
        var kept: Int { count.load(ordering: .relaxed) }
    }

    /// The budget this storage's descriptors count against.
    let budget: Budget

    /// Counts the children made by `fork` in which this process's memory lives on: a descriptor
    /// kept before the count moved belongs to the parent.
    private static let forkGeneration = Atomic<UInt64>(0)

    /// Registers the handler that counts forks, once.
    private static let countsForks: Void = {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        _ = pthread_atfork(nil, nil) { KeptFiles.noteFork() }
        #endif
    }()

    /// Notes that this process is a child `fork` just made: what was kept before belongs to the
    /// parent. Run by the handler ``countsForks`` registers (and by tests, as a fork would).
    static func noteFork() {
        forkGeneration.add(1, ordering: .relaxed)
    }

    /// Keeps files within `budget` (the process's, unless a test gives one).
    init(budget: Budget = .process) {
        self.budget = budget
    }

    /// The descriptor kept for `path`, and the file it was opened on, now the caller's: it
    /// closes it or gives it back. `nil` when none is kept.
    func take(_ path: String) -> KeptFile? {
        guard let kept = files.withLock({ $0.removeValue(forKey: path) }) else { return nil }
        budget.release()
        guard kept.generation == Self.forkGeneration.load(ordering: .relaxed) else {
            Self.close(kept.file.descriptor)  // this process's copy of its parent's descriptor
            return nil
        }
        return kept.file
    }

    /// Whether what is kept for `path` is open for writing (see ``takeWritable(_:)``).
    func holdsWritable(_ path: String) -> Bool {
        files.withLock { $0[path]?.file.writable == true }
    }

    /// ``take(_:)``, only when what is kept for `path` is open for writing; a descriptor open for
    /// reading only stays kept.
    func takeWritable(_ path: String) -> KeptFile? {
        let kept = files.withLock { files -> Kept? in
            guard let kept = files[path], kept.file.writable else { return nil }
            files[path] = nil
            return kept
        }
        guard let kept else { return nil }
        budget.release()
        guard kept.generation == Self.forkGeneration.load(ordering: .relaxed) else {
            Self.close(kept.file.descriptor)
            return nil
        }
        return kept.file
    }

    /// Keeps `descriptor`, open on the file `stamp` at `path` and not locked, for the next
    /// transaction; `false` when the process keeps as many as it may (the caller closes it).
    ///
    /// A `writable` descriptor is a document's, open for reading and writing, whose file belonged
    /// to `owner`.
    func keep(_ path: String, descriptor: Int32, stamp: FileStamp, writable: Bool = false, owner: UInt32 = 0) -> Bool {
        Self.countsForks
        guard budget.reserve() else { return false }
        let kept = Kept(
            file: KeptFile(descriptor: descriptor, stamp: stamp, writable: writable, owner: owner),
            generation: Self.forkGeneration.load(ordering: .relaxed))
        // One transaction of a path at a time takes and gives back, so none is displaced; were
        // one, it is closed rather than lost.
        if let displaced = files.withLock({ $0.updateValue(kept, forKey: path) }) {
            budget.release()
            Self.close(displaced.file.descriptor)
        }
        return true
    }

    deinit {
        let kept = files.withLock { files in
            defer { files.removeAll() }
            return Array(files.values)
        }
        for file in kept {
            budget.release()
            // A parent's descriptor in a forked child is this process's copy: closed the same way.
            Self.close(file.file.descriptor)
        }
    }

    private static func close(_ descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        closeKept(descriptor)
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// Closes `descriptor` (the C library's `close`, which ``KeptFiles``' own hides inside it).
private func closeKept(_ descriptor: Int32) {
    _ = close(descriptor)
}
#endif

// MARK: - The paths of the documents
//
// What a storage keeps of its documents between transactions: beside their open files (above),
// their paths, made once per key.

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
