import Foundation

/// The production ``StoreStorage``: one JSON document per store in a per-user data folder.
///
/// Give each store a key; its value lives in `<folder>/<key>.json`:
///
/// ```swift
/// struct Counter: Codable, Sendable { var count = 0 }
///
/// let storage = FileStorage()                 // ~/.local/share/<app>, or Application Support/<app>
/// let start = try storage.load(Counter.self, forKey: "counter", default: Counter())
/// if let problem = start.recovery { print(problem) }   // a bad file was kept aside
///
/// let update = try storage.update(Counter.self, forKey: "counter", default: Counter()) {
///     $0.count += 1
/// }
/// print(update.value.count)                   // what is on disk now, across processes
/// ```
///
/// **Folder.** The `folder` argument wins; else the ``environmentVariable``
/// (`SINGLETON_STORES_DATA_DIR`, the folder itself; a relative path is resolved against the
/// current folder); else, on Apple platforms, `Application Support/<appName>`; elsewhere
/// `$XDG_DATA_HOME/<appName>` (when absolute) or `~/.local/share/<appName>`. The folder (and
/// any missing parent) is created with permissions `0700` when first written to, whatever the
/// process's umask. The folder must belong to you: one owned by another user is refused
/// (``StorageError/folderUnavailable(folder:reason:)``, naming its owner). A read never changes
/// a folder's permissions. Before a write, a folder others can access is made private (`0700`)
/// only when it is the library's own — it holds nothing but the library's files — and that is
/// reported through `reportNotice` when others could change it
/// (``StorageNotice/folderMadePrivate(folder:previousMode:)``). A folder the library did not
/// make for itself is never changed: one holding other files is written to as it is, unless
/// others can change files in it (then writes are refused, saying so); a shared folder with the
/// sticky bit, such as `/tmp`, is used as it is and reported once
/// (``StorageNotice/folderNotPrivate(folder:mode:reason:)``). A file where the folder or one
/// of its parents should be is reported as "a file is in the way at <path>". The folder may be
/// a symbolic link you made (it is followed); inside it, links are never followed: a document,
/// lock file or temporary file that is a link is refused with an error and left alone.
///
/// **Documents.** `{"formatVersion": 2, "value": …}`, pretty-printed with sorted keys, file
/// permissions `0600` whatever the umask. A write goes to a temporary file in the same folder,
/// is flushed (`fsync`), then renamed over the document, so a crash leaves the old document or
/// the new one, never a mix. A document is rewritten only when its value changed. A `Date` is
/// ISO 8601 text in UTC, exact: `"2025-05-10T08:53:20.4316511Z"`, with as many digits of the
/// second as it takes to read back the very same `Date` (none for a whole second); dates must
/// lie in the years 0000–9999, or the write fails with ``StorageError/encodingFailed(key:reason:)``.
/// Everything else uses `JSONEncoder`'s default strategies.
///
/// **Older documents.** A document of format 1 (dates as seconds since 2001) loads, and is
/// rewritten as format 2 the next time its value changes. A type whose own shape changed
/// between formats reads ``Swift/Decoder/documentFormatVersion`` in its `init(from:)`.
///
/// **Fields this version does not know** (added to a document by a newer version of the app
/// with the same ``formatVersion``) are ignored when reading and **dropped** when this version
/// rewrites the document. Raise ``formatVersion`` when older versions must not lose a field:
/// they then keep the newer document aside instead of rewriting it.
///
/// **Errors that may pass** — no free file descriptor, no memory, permission denied, a disk
/// that is full or failing, an interrupted call (retried) — never move a document aside: the
/// call throws ``StorageError/readFailed(file:reason:)``, ``StorageError/writeFailed(file:reason:)``
/// or ``StorageError/lockFailed(file:reason:)``, and every file stays where it is.
///
/// **Blocking.** Calls do file I/O on the calling thread and, for writes, wait while another
/// writer of the same store holds the lock; keep them off the main actor when that matters.
///
/// **Bad documents** (not a regular file, larger than 256 MiB — read, such a file could exhaust
/// memory at every launch —, empty, truncated, not JSON, of another shape, or of a newer
/// ``formatVersion``) are never overwritten or deleted: they are renamed to
/// `<key>~<reason>-<UTC time>.json` (with `-2`, `-3`… when that name is taken), the call
/// continues from the default, and the ``StorageError`` naming both files comes back as its
/// `recovery`. When a write replaces a bad document, moving it aside and writing the new one
/// are one step: if the write fails, the bad document is back in place.
///
/// **Locking.** Moving bad documents aside, ``save(_:forKey:)`` and
/// ``update(_:forKey:default:_:)`` run under `flock(LOCK_EX)` on `<key>.lock`. The lock belongs
/// to each open file description, so it excludes other processes, other instances and other
/// threads alike; no further in-process lock is needed. Temporary files left by a writer that
/// was killed (`<key>~<id>.tmp`) are removed under that lock. Lock files are left in place
/// (deleting them would race with waiting writers). On a platform without `flock` (neither
/// Glibc, Musl nor Darwin) there is no locking: use one writer per folder there.
///
/// `update`'s body runs while the lock is held, so it must be a quick transform of the value: no
/// notifications, and no call that locks the same key again (that would deadlock). A decision
/// that spans two documents may update a second key inside the body, when every caller nests
/// the two keys in the same order.
public struct FileStorage: StoreStorage {
    /// The environment variable that chooses the data folder when no folder is passed.
    public static let environmentVariable = "SINGLETON_STORES_DATA_DIR"

    /// The document format this build writes (2), and the newest it reads; documents of
    /// format 1 are read too. A newer document is kept aside, never rewritten.
    public static let formatVersion = DocumentFormat.current

    /// The folder that holds the documents (created on first write).
    public let folder: URL

    /// The source of the time stamped on the names of kept bad documents.
    let now: @Sendable () -> Date

    /// Where notices about the data folder go.
    let reportNotice: @Sendable (StorageNotice) -> Void

    /// Creates a storage in the given folder, or in the one the environment and platform choose.
    ///
    /// Nothing is created on disk until the first write.
    ///
    /// - Parameters:
    ///   - folder: The data folder; `nil` to resolve it (see the type's documentation).
    ///   - appName: The sub-folder of the per-user data folder; characters other than
    ///     `A–Z a–z 0–9 . _ -` become `_`. Defaults to the bundle identifier or process name.
    ///   - environment: Where to read `SINGLETON_STORES_DATA_DIR`, `XDG_DATA_HOME` and `HOME`.
    ///   - now: The current time, used to name kept bad documents.
    ///   - reportNotice: Called when the storage changed something on its own, such as making
    ///     a data folder that other users could access private. Prints to standard error by
    ///     default.
    public init(
        folder: URL? = nil,
        appName: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        now: @escaping @Sendable () -> Date = { Date() },
        reportNotice: @escaping @Sendable (StorageNotice) -> Void = StorageNotice.printToStandardError
    ) {
        let app =
            appName.map { StorageKey.sanitized($0, fallback: "SingletonStores") }
            ?? FileStorageFolder.defaultAppName
        self.folder = FileStorageFolder.resolve(explicit: folder, appName: app, environment: environment)
        self.now = now
        self.reportNotice = reportNotice
    }

    /// The document file of the store named `key`.
    public func fileURL(forKey key: String) throws(StorageError) -> URL {
        folder.appending(path: "\(try StorageKey.validated(key)).json", directoryHint: .notDirectory)
    }

    /// Reads the value stored under `key`, or `defaultValue` when there is none.
    ///
    /// Reading takes no lock (documents are replaced atomically). Only when the document is
    /// bad does it lock, look again, and move the document aside.
    public func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value
    ) throws(StorageError) -> StorageLoad<Value> {
        let file = try fileURL(forKey: key)
        guard try FileStorageFolder.prepare(folder, creating: false, report: reportNotice) else {
            return StorageLoad(value: defaultValue(), isStored: false)
        }
        switch try readDocument(Value.self, file: file) {
        case (let value?, _):
            return StorageLoad(value: value, isStored: true)
        case (nil, nil):
            return StorageLoad(value: defaultValue(), isStored: false)
        case (nil, _?):
            return try DocumentFile.withExclusiveLock(on: lockURL(forKey: key)) { () throws(StorageError) in
                let current = try readDocument(Value.self, file: file)
                if let value = current.value { return StorageLoad(value: value, isStored: true) }
                let recovery = try current.problem.map { problem throws(StorageError) in
                    try keepAside(file, key: key, problem: problem)
                }
                return StorageLoad(value: defaultValue(), isStored: false, recovery: recovery)
            }
        }
    }

    /// Replaces the value stored under `key` with `value`, moving a bad document aside first.
    @discardableResult
    public func save<Value: Codable & Sendable>(
        _ value: Value,
        forKey key: String
    ) throws(StorageError) -> StorageError? {
        let file = try fileURL(forKey: key)
        let data = try DocumentCoding.encode(value, key: key)
        _ = try FileStorageFolder.prepare(folder, creating: true, report: reportNotice)
        return try DocumentFile.withExclusiveLock(on: lockURL(forKey: key)) { () throws(StorageError) in
            removeStaleTemporaries(forKey: key)
            let previous = try readDocument(Value.self, file: file)
            return try write(data, to: file, key: key, replacing: previous.problem)
        }
    }

    /// Locks the document under `key`, re-reads it, applies `body`, and writes the result if
    /// it changed. See ``StoreStorage/update(_:forKey:default:_:)``.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        let file = try fileURL(forKey: key)
        _ = try FileStorageFolder.prepare(folder, creating: true, report: reportNotice)
        return try DocumentFile.withExclusiveLock(on: lockURL(forKey: key)) { () throws(StorageError) in
            removeStaleTemporaries(forKey: key)
            let current = try readDocument(Value.self, file: file)
            var value = current.value ?? defaultValue()
            let before = try DocumentCoding.encode(value, key: key)
            let outcome = try body(&value)
            let after = try DocumentCoding.encode(value, key: key)
            let changed = after != before
            let recovery: StorageError?
            if changed {
                recovery = try write(after, to: file, key: key, replacing: current.problem)
            } else {
                recovery = try current.problem.map { problem throws(StorageError) in
                    try keepAside(file, key: key, problem: problem)
                }
            }
            return StorageUpdate(value: value, outcome: outcome, didWrite: changed, recovery: recovery)
        }
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
