import Foundation

/// The production ``StoreStorage``: one JSON document per store in a per-user data folder.
///
/// Name each document once, as a ``StoreDocument``; its value lives in `<folder>/<key>.json`.
/// A write goes to a temporary file that is flushed and renamed over the document, under a lock
/// file that excludes other processes, other instances and other threads, and waits at most
/// ``lockTimeout`` for a writer that makes no progress. Reads never wait. A bad document is moved
/// aside, never overwritten or deleted; links, files of other users and files that are not the
/// library's are never used as its own.
///
/// <doc:StoringDocumentsInFiles> says where the data folder is, what a document looks like, how
/// writers lock and wait, and what happens to bad documents, temporary files and documents of
/// older or newer versions.
public struct FileStorage: StoreStorage {
    /// The environment variable that chooses the data folder when no folder is passed.
    public static let environmentVariable = "SINGLETON_STORES_DATA_DIR"

    /// The document format this build writes (2), and the newest it reads; documents of
    /// format 1 are read too. A newer document is left in place, never rewritten.
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
        let setting = lockTimeout == nil ? Self.lockTimeoutSetting(in: environment) : nil
        self.lockTimeout = Self.clampedLockTimeout(lockTimeout ?? setting?.timeout ?? Self.defaultLockTimeout)
        self.reportNotice = reportNotice
        if let ignored = setting?.ignored { Self.reportIgnoredLockTimeout(ignored, report: reportNotice) }
    }

    /// The document file of the store named `key`.
    public func fileURL(forKey key: String) throws(StorageError) -> URL {
        try paths.entry(forKey: key, in: folder).file
    }

    /// Reads `document`, or its default value when there is none.
    ///
    /// Reading takes no lock and never waits (documents are replaced atomically). Only when
    /// the document is bad, and the lock is free at once, does it lock, look again, and move
    /// the document aside; while another process holds the lock, it returns the default and
    /// leaves the document to the next write. (A lock this process let go of, still held for a
    /// moment by a child process being started, counts as free: it is waited for.) With
    /// ``StoreDocument/migrations``, when the lock is free at once, a migrated document is backed
    /// up and rewritten at the current version (reported as
    /// ``StorageNotice/documentMigrated(file:from:to:backup:)``); otherwise the migrated value is
    /// returned and the document left to the next write.
    public func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError)
        -> StorageLoad<Value>
    {
        try loadDocument(
            Value.self, forKey: document.validKey(), default: document.defaultValue, migrations: document.migrations,
            identity: document.identity)
    }

    /// The load of ``load(_:)``.
    private func loadDocument<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>?,
        identity: String
    ) throws(StorageError) -> StorageLoad<Value> {
        let file = try fileURL(forKey: key)
        guard try FileStorageFolder.prepare(folder, path: folderPath, creating: false, report: reportNotice) else {
            return StorageLoad(value: defaultValue(), isStored: false)
        }
        // A document long enough to be read as a stream is read once: under the lock when it
        // is free, so that the smaller value read from it is written back at once.
        if let streamed = migrations?.streamedReading, let size = DocumentFile.size(of: file),
            size > min(streamed.threshold, DocumentFile.readLimit),
            (try? FileStorageFolder.prepare(folder, path: folderPath, creating: true, report: reportNotice)) != nil,
            let locked = try loadUnderLock(
                Value.self, forKey: key, file: file, default: defaultValue(), migrations: migrations, identity: identity,
                mayRewrite: true)
        {
            return locked
        }
        let first = try readDocument(Value.self, file: file, migrations: migrations, identity: identity)
        if let failure = first.failure { return StorageLoad(value: defaultValue(), isStored: false, recovery: failure) }
        if let value = first.value, first.migration == nil, first.streamedSize == nil {
            return StorageLoad(value: value, isStored: true)
        }
        if first.value == nil, first.problem == nil { return StorageLoad(value: defaultValue(), isStored: false) }
        // Another program's file in the document's place is left alone: not even a lock file is made for it.
        if first.value == nil, let problem = first.problem { try checkMayKeepAside(file, problem: problem) }
        // A bad document to move aside, or an older or long one to rewrite: only when the lock
        // is free at once. Either is left to the next write otherwise. Rewriting a document is
        // a write: only into a folder fit for writes (the next write says why, if it is not).
        let mayRewrite =
            (first.migration != nil || first.streamedSize != nil)
            && (try? FileStorageFolder.prepare(folder, path: folderPath, creating: true, report: reportNotice)) != nil
        // A long document that can't be rewritten here is used as read, taking no lock (as a
        // document that needs nothing done is: on a read-only volume too).
        if let value = first.value, first.migration == nil, !mayRewrite { return StorageLoad(value: value, isStored: true) }
        if let locked = try loadUnderLock(
            Value.self, forKey: key, file: file, default: defaultValue(), migrations: migrations, identity: identity,
            mayRewrite: mayRewrite)
        {
            return locked
        }
        if let value = first.value { return StorageLoad(value: value, isStored: true) }
        return StorageLoad(value: defaultValue(), isStored: false)
    }

    /// The part of a load that runs under the lock, when it is free at once (`nil` otherwise):
    /// reads the document again, moves a bad one aside, and — when `mayRewrite` — writes back
    /// a migrated value (after a backup) or the smaller value read from a long document.
    private func loadUnderLock<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        file: URL,
        default defaultValue: @autoclosure () -> Value,
        migrations: DocumentMigrations<Value>?,
        identity: String,
        mayRewrite: Bool
    ) throws(StorageError) -> StorageLoad<Value>? {
        var notices: [StorageNotice] = []
        let locked = try DocumentFile.withExclusiveLock(on: lockURL(forKey: key), waiting: .never) {
            (lease: LockLease) throws(StorageError) -> StorageLoad<Value> in
            let current = try readDocument(Value.self, file: file, migrations: migrations, identity: identity)
            let read = current.stamp
            if let failure = current.failure { return StorageLoad(value: defaultValue(), isStored: false, recovery: failure) }
            if let value = current.value {
                if mayRewrite, let migrations, current.migration != nil || current.streamedSize != nil {
                    // Best effort: a document that can't be rewritten now is rewritten by the
                    // next write, which reports why if it still can't.
                    if let data = try? DocumentCoding.encode(
                        value, key: key, store: identity, valueVersion: migrations.version),
                        current.migration != nil || Int64(data.count) < (current.streamedSize ?? 0)
                    {
                        _ = try? write(
                            data, to: file, key: key, replacing: nil, backup: current.migration, lease: lease, read: read,
                            notices: &notices)
                    }
                }
                return StorageLoad(value: value, isStored: true)
            }
            let recovery = try current.problem.map { problem throws(StorageError) in
                try keepAside(file, key: key, problem: problem)
            }
            return StorageLoad(value: defaultValue(), isStored: false, recovery: recovery)
        }
        notices.forEach(reportNotice)
        return locked
    }

    /// Replaces what `document` holds with `value`, moving a bad document aside first; see
    /// ``StoreStorage/save(_:to:)``.
    ///
    /// With ``StoreDocument/migrations``, the document records their current version; a document
    /// of an older value version is backed up before it is replaced, and one whose migration
    /// fails is left in place and the call throws
    /// ``StorageError/migrationFailed(file:from:failedStep:reason:)``.
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) throws(StorageError)
        -> StorageError?
    {
        try saveDocument(value, forKey: document.validKey(), migrations: document.migrations, identity: document.identity)
    }

    /// The save of ``save(_:to:)``.
    private func saveDocument<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String,
        migrations: DocumentMigrations<Value>?,
        identity: String
    ) throws(StorageError) -> StorageError? {
        let file = try fileURL(forKey: key)
        let data = try DocumentCoding.encode(value, key: key, store: identity, valueVersion: migrations?.version)
        _ = try FileStorageFolder.prepare(folder, path: folderPath, creating: true, report: reportNotice)
        var retry = LostLockRetry(limit: lockTimeout)
        while true {
            var notices: [StorageNotice] = []
            let attempt = try DocumentFile.withExclusiveLock(
                on: lockURL(forKey: key), waiting: .upTo(lockTimeout, document: file)
            ) {
                (lease: LockLease) throws(StorageError) -> WriteAttempt<StorageError?> in
                // The write's own listing removes the temporary files of writers that are gone.
                let previous = try readDocument(Value.self, file: file, migrations: migrations, identity: identity)
                let read = previous.stamp
                if let failure = previous.failure { throw failure }
                return try write(
                    data, to: file, key: key, replacing: previous.problem, backup: previous.migration, lease: lease,
                    read: read, notices: &notices)
            }
            notices.forEach(reportNotice)
            switch attempt {
            case .done(let recovery)?:
                WrittenDocuments.remember(data, of: Value.self, in: file, valueVersion: migrations?.version)
                return recovery
            case let lost?: _ = try retry.pause(after: lost)
            case nil: continue
            }
        }
    }

    /// Locks `document`, re-reads it, applies `body`, and writes the result if it changed; see
    /// ``StoreStorage/update(_:_:)``.
    ///
    /// With ``StoreDocument/migrations``, a document of an older value version is migrated
    /// first, and backed up and rewritten even when `body` leaves its value as it is; one whose
    /// migration fails is left in place: the call throws
    /// ``StorageError/migrationFailed(file:from:failedStep:reason:)`` and `body` does not run.
    /// Nor does it run for a bad document that may not be moved aside (another program's file
    /// in a folder the library did not make): the call throws
    /// ``StorageError/keepAsideFailed(file:reason:)`` first, so a `body` that spends or decides
    /// never acts on a write that can't happen.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        let key = try document.validKey()
        let update = try transaction(
            Value.self, forKey: key, default: document.defaultValue, migrations: document.migrations,
            identity: document.identity, waiting: .upTo(lockTimeout, document: nil), body)
        // Only a transaction that does not wait comes back without a result; one that waits
        // throws when the lock stays held. Should that ever change, say what happened.
        guard let update else { throw .lockTimedOut(file: lockURL(forKey: key), holder: nil, waited: lockTimeout) }
        return update
    }

    /// Like ``update(_:_:)``, but returns `nil` at once, running nothing, when another process
    /// holds the document's lock; see ``StoreStorage/updateIfAvailable(_:_:)``.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try transaction(
            Value.self, forKey: document.validKey(), default: document.defaultValue, migrations: document.migrations,
            identity: document.identity, waiting: .never, body)
    }

    /// Follows the document of `key` as `watching` says; see ``StoreStorage/watch(forKey:_:onChange:)``.
    ///
    /// One thread per process serves every watch. With file events (inotify on Linux) it watches
    /// the data folder, not the file — documents are replaced by rename — and sleeps until the
    /// folder changes; polled watches compare the document's inode, size and modification time
    /// at their interval. A watch of a folder that does not exist yet polls until the folder
    /// appears, then switches to file events. A document written in place by another tool is
    /// seen when its writer closes it (file events) or at the next poll, which may find it half
    /// written: write documents by replacing them, as this storage does.
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
