import Foundation

/// The production ``StoreStorage``: one JSON document per store in a per-user data folder.
///
/// Name each document once, as a ``StoreDocument``; its value lives in `<folder>/<key>.json`.
/// A save writes the older of the document file's two slots in place and flushes it once (a new
/// document, or one that outgrew its slot, is a new file renamed over it), under a lock
/// file that excludes other processes, other instances and other threads, and waits at most
/// ``lockTimeout`` for a writer that makes no progress. Reads never wait. A bad document is moved
/// aside, never overwritten or deleted; links, files of other users and files that are not the
/// library's are never used as its own.
///
/// <doc:StoringDocumentsInFiles> says where the data folder is, what a document looks like, how
/// writers lock and wait, and what happens to bad documents, temporary files and documents of
/// older or newer versions; <doc:HowADocumentIsStored> shows the file byte by byte.
public struct FileStorage: StoreStorage {
    /// The environment variable that chooses the data folder when no folder is passed.
    public static let environmentVariable = "SINGLETON_STORES_DATA_DIR"

    /// The document format this build writes (2), and the newest it reads; documents of
    /// format 1 are read too. A newer document is left in place, never rewritten. (The file
    /// around the document, two slots, states format 3: see <doc:HowADocumentIsStored>.)
    public static let formatVersion = DocumentFormat.current

    /// The environment variable that sets ``lockTimeout`` when none is passed: a number of
    /// seconds, such as `0.5`; values outside 0–600 are clamped (`inf` is 600). Other text —
    /// empty, `abc`, `nan` — is ignored, and reported once per process as
    /// ``StorageNotice/lockTimeoutIgnored(value:)``.
    public static let lockTimeoutEnvironmentVariable = "SINGLETON_STORES_LOCK_TIMEOUT"

    /// The lock timeout when neither the initializer nor the environment sets one: 5 seconds.
    public static let defaultLockTimeout = Duration.seconds(5)

    /// The longest lock timeout, and the longest any write waits for a lock: 10 minutes.
    /// Longer timeouts are clamped to it.
    public static let maximumLockTimeout = Duration.seconds(600)

    /// The folder that holds the documents (created on first write).
    public let folder: URL

    /// How long a write waits for another process's lock on the same store without progress
    /// (no other writer committing) before it throws
    /// ``StorageError/lockTimedOut(file:holder:waited:)``; between zero (try once) and
    /// ``maximumLockTimeout``, which also bounds every wait in all. Reads never wait.
    public let lockTimeout: Duration

    /// The source of the time stamped on the names of kept bad documents.
    let now: @Sendable () -> Date

    /// Where notices about the data folder go.
    let reportNotice: @Sendable (StorageNotice) -> Void

    /// The URLs of the documents used so far, made once per key.
    let paths = DocumentPaths()

    /// The lock files and documents kept open between transactions (see ``KeptFiles``), closed
    /// with the storage's last copy.
    var kept = KeptFiles()

    /// The path of ``folder``, made once: a `URL` makes its path anew at each call, and each
    /// write looks at the folder.
    let folderPath: String

    /// Creates a storage in the given folder, or in the one the app declared for every store
    /// (``StoreValues/dataFolder``), or else in the one the environment and platform choose.
    ///
    /// Nothing is created on disk until the first write.
    ///
    /// - Parameters:
    ///   - folder: The data folder; `nil` for the one the app declared for every store
    ///     (``StoreValues/dataFolder``, in the current scope), else the one the environment
    ///     and platform choose (see <doc:StoringDocumentsInFiles>).
    ///   - appName: The sub-folder of the per-user data folder, when neither `folder`, a declared
    ///     folder nor the environment names one; characters other than `A–Z a–z 0–9 . _ -`
    ///     become `_`. Defaults to the bundle identifier or process name.
    ///   - environment: Where to read `SINGLETON_STORES_DATA_DIR`, `XDG_DATA_HOME` and `HOME`.
    ///   - now: The current time, used to name kept bad documents and to age temporary files
    ///     of older versions.
    ///   - lockTimeout: How long a write waits for another process's lock; `nil` to read
    ///     `SINGLETON_STORES_LOCK_TIMEOUT` from `environment`, else 5 seconds. Clamped to
    ///     zero through ``maximumLockTimeout``. A variable that is not a number is reported
    ///     (``StorageNotice/lockTimeoutIgnored(value:)``).
    ///   - reportNotice: Called when the storage changed something on its own, such as making
    ///     a data folder that other users could access private, or migrating a document. Prints
    ///     to standard error by default. It may run while a store that reads through this
    ///     storage holds its own lock (a store migrating a document it follows): log or print
    ///     from it, but don't read or change stores.
    public init(
        folder: URL? = nil,
        appName: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        now: @escaping @Sendable () -> Date = { Date() },
        lockTimeout: Duration? = nil,
        reportNotice: @escaping @Sendable (StorageNotice) -> Void = StorageNotice.printToStandardError
    ) {
        let app =
            appName.map { StorageKey.sanitized($0, fallback: "SingletonStores") }
            ?? FileStorageFolder.defaultAppName
        let declared = folder == nil ? StoreValues.declaredDataFolder : nil
        self.folder = FileStorageFolder.resolve(explicit: folder, declared: declared, appName: app, environment: environment)
        if folder == nil, declared == nil { StoreValues.noteStorageWithoutDeclaredFolder(self.folder) }
        self.folderPath = self.folder.filePath
        self.now = now
        let setting = lockTimeout == nil ? LockTimeoutSetting.of(environment) : nil
        self.lockTimeout = LockTimeoutSetting.clamped(lockTimeout ?? setting?.timeout ?? Self.defaultLockTimeout)
        self.reportNotice = reportNotice
        if let ignored = setting?.ignored { LockTimeoutSetting.reportIgnored(ignored, report: reportNotice) }
    }

    /// The document file of the store named `key`, or `nil` for a key that is not valid: where
    /// the stores of this process claim it (see ``StoreStorage/documentLocation(forKey:)``).
    public func documentLocation(forKey key: String) -> URL? {
        try? fileURL(forKey: key)
    }

    /// The document file of the store named `key`.
    public func fileURL(forKey key: String) throws(StorageError) -> URL {
        try paths.entry(forKey: key, in: folder).file
    }

    /// How many times a read without the lock reads a two-slot file with one whole slot before
    /// it takes that slot.
    static let readsOfAFileWithOneWholeSlot = 3

    /// The bytes of the document of `key`; see ``StoreStorage/read(_:)``.
    ///
    /// Takes no lock and never waits: a document is replaced whole, by rename, or written into the
    /// slot its readers are not reading (see <doc:HowADocumentIsStored>). A link, or a file
    /// of another user, in the document's place is never read (the call throws); a folder or a
    /// pipe in its place, or a file larger than 256 MiB, comes back damaged, to be set aside.
    public func read(_ key: String) throws(StorageError) -> StoredBytes? {
        let file = try fileURL(forKey: key)
        guard try FileStorageFolder.prepare(folder, path: folderPath, creating: false, report: reportNotice) else {
            return nil
        }
        // A two-slot file is written in place while it is read. A read that finds neither slot
        // whole may have met two writes in a row, and is made again, up to 8 times (a damaged
        // file reads so every time, and is set aside under the lock by the caller). A read that
        // finds one slot whole and the other not may have copied the whole one before a write
        // went into it, and met the next write in the other: the version it found can be older
        // than one already committed, so it is made again too, up to 3 times (a slot that a
        // crash left torn stays so until the next write, and its whole one is then the document).
        var attempt = 0
        while true {
            var stamp: FileStamp?
            let (stored, slots) = try stored(at: file, stamp: &stamp)
            attempt += 1
            if let slots {
                guard slots.slots.count < 2, attempt < Self.readsOfAFileWithOneWholeSlot else { return stored }
                continue
            }
            guard let stored, stored.damage != nil, attempt < 8,
                SlotFile.isSlotFile(stored.bytes.prefix(SlotFile.signature.count))
            else { return stored }
        }
    }

    /// Runs `body` with the document of `key` under its lock file, and commits what it decided;
    /// see ``StoreStorage/transaction(_:waits:_:)``.
    ///
    /// A write goes into the older slot of the document file, flushed once, or, for a new
    /// document or one that outgrew its slot, to a temporary file, flushed and renamed over it
    /// (see <doc:HowADocumentIsStored>); a save whose flush failed is never reported as saved
    /// (``StorageError/notDurable(file:reason:)`` when the new version is in place). A bad document
    /// set aside is renamed to `<key>~corrupt-<UTC time>.json` (or `~unreadable-`) in the same
    /// step, and put back when the new document can't be written. A backup is copied to
    /// `<key>~before-v<N>-<UTC time>.json` first (reported as
    /// ``StorageNotice/documentMigrated(file:from:to:backup:)``). Waits at most ``lockTimeout``
    /// for a writer that makes no progress, then throws
    /// ``StorageError/lockTimedOut(file:holder:waited:)``, having changed nothing. When the lock
    /// file was removed or replaced before the commit, the transaction starts over under the new
    /// lock: `body` runs again, on what is there then.
    public func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        try FileTransaction(storage: self, key: key, waits: waits).run(body)
    }

    /// Follows the document of `key` as `watching` says; see ``StoreStorage/watch(forKey:_:onChange:)``.
    ///
    /// One thread per process serves every watch. With file events (inotify on Linux) it watches
    /// the data folder, not the file — a document may be replaced by rename — and sleeps until
    /// the folder changes; polled watches compare the document's inode, size, modification time
    /// and the sequence number of its current version (see <doc:HowADocumentIsStored>) at their
    /// interval. A watch of a folder that does not exist yet polls until the folder
    /// appears, then switches to file events. A document written in place by another tool is
    /// seen when its writer closes it (file events) or at the next poll, which may find it half
    /// written: write a document by replacing it with a new file.
    ///
    /// `onChange` runs on the watcher's thread; a slow handler delays other watches' news.
    /// Returns `nil` for `.off`, on a platform without POSIX files, or when the process has no
    /// free file descriptor for the watcher's wake-up pipe.
    public func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        let name = "\(try StorageKey.validated(key)).json"
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let forcesPolling: Bool
        let interval: Duration
        switch watching.mode {
        case .off: return nil
        case .automatic(let fallback): (forcesPolling, interval) = (false, fallback)
        case .polling(let every): (forcesPolling, interval) = (true, every)
        }
        let watcher = DocumentWatcher.shared
        guard
            let id = watcher.subscribe(
                folder: folder, name: name, forcesPolling: forcesPolling, interval: interval, handler: onChange)
        else { return nil }
        return StorageWatch(
            mechanism: { watcher.mechanism(of: id) ?? .polling(interval: interval) },
            stop: { watcher.cancel(id) })
        #else
        return nil
        #endif
    }
}
