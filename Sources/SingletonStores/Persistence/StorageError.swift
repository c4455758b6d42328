import Foundation
import SingletonStoresLocking

/// A problem a ``StoreStorage`` met while reading or writing a store's document.
///
/// Each case names the files involved and its ``description`` tells the user what to do.
/// Storage uses the errors in two ways:
///
/// - **Thrown** when an operation could not be done at all: an invalid key, a folder that
///   can't be created or used, a document that can't be read or written, a bad document
///   that can't be moved aside, or a lock that can't be taken. Nothing on disk was changed
///   then, and each message says so: a failure that may pass (no free file descriptor, no
///   memory, permission denied, a disk error) never moves a good document aside.
/// - **Reported** as ``StorageLoad/recovery`` or ``StorageUpdate/recovery`` when a bad
///   document was moved aside and the store carried on from its defaults:
///   ``corrupted(file:keptAt:reason:)`` and ``unreadable(file:keptAt:reason:)``.
/// - **Reported, then thrown by every write**, for a document that is not bad but that this
///   store may not change: it stays in place, unchanged, the store shows its default, and
///   `save`, `update` and `updateIfAvailable` throw the same error, writing nothing:
///   ``newerFormatLeftInPlace(file:found:supported:)`` and
///   ``newerValueVersionLeftInPlace(file:found:supported:)`` (a newer version of the app wrote
///   it), ``documentOfAnotherStore(file:owner:store:)`` (another store wrote it), and
///   ``migrationFailed(file:from:failedStep:reason:)``.
///
/// ```swift
/// do {
///     let loaded = try storage.load(StoreDocument(key: "profile", default: Profile()))
///     if let problem = loaded.recovery { print(problem) }  // kept aside, starting fresh
/// } catch {
///     print(error)                                          // nothing could be read or kept
/// }
/// ```
public enum StorageError: Error, Sendable, Equatable {
    /// A name can't be used: a store's key, or a name a storage takes in its options (a
    /// database table's, say). `reason` says what such a name may be.
    ///
    /// Keys are 1–120 characters from `A–Z a–z 0–9 . _ -`, don't start with a dot and
    /// don't contain `..`, whatever the storage.
    case invalidKey(String, reason: String)

    /// The data folder could not be created or used: a file is in the way, it or a folder or
    /// link on its path belongs to another user, others can change a folder on its path, its
    /// path is too long for its files, or others can change it and it could not be made private.
    case folderUnavailable(folder: URL, reason: String)

    /// Something other than a regular file (a folder, a pipe, a device) is where the document
    /// should be; it was moved to `keptAt`.
    case unreadable(file: URL, keptAt: URL, reason: String)

    /// The document is not a valid document for this store (corrupted, truncated, empty,
    /// not JSON, or of another shape); it was moved to `keptAt`.
    case corrupted(file: URL, keptAt: URL, reason: String)

    /// The document was written by a newer version of the app (format `found`, this build
    /// reads up to `supported`); it was not read and was moved to `keptAt` unchanged.
    ///
    /// Reported by earlier versions of the library, which moved such a document aside. This
    /// version leaves it in place and reports ``newerFormatLeftInPlace(file:found:supported:)``.
    case newerFormat(file: URL, found: Int, supported: Int, keptAt: URL)

    /// The document's value is of version `found`, newer than the store's
    /// ``DocumentMigrations/version`` (`supported`): a newer version of the app wrote it. It was
    /// not read and was moved to `keptAt` unchanged.
    ///
    /// Reported by earlier versions of the library, which moved such a document aside. This
    /// version leaves it in place and reports
    /// ``newerValueVersionLeftInPlace(file:found:supported:)``.
    case newerValueVersion(file: URL, found: Int, supported: Int, keptAt: URL)

    /// The document was written by a newer version of the app, in format `found` (this version
    /// reads up to `supported`, ``FileStorage/formatVersion``). It was left in place, unchanged:
    /// the store shows its default, and every write of the document throws this error, so that
    /// the newer version finds its data when the app is updated again.
    case newerFormatLeftInPlace(file: URL, found: Int, supported: Int)

    /// The document's value is of version `found`, newer than the store's
    /// ``DocumentMigrations/version`` (`supported`): a newer version of the app wrote it. It was left in place, unchanged: the store shows its
    /// default, and every write of the document throws this error.
    case newerValueVersionLeftInPlace(file: URL, found: Int, supported: Int)

    /// The document belongs to another store: it records the identity `owner` (or a live store
    /// of `owner` in this process holds it), and this store is `store` (see
    /// ``StoreDocument/identity``). Two stores use one key. The document was left in place,
    /// unchanged: this store shows its default, and every write of it throws this error.
    case documentOfAnotherStore(file: URL, owner: String, store: String)

    /// The document's value is of the older version `from`, and the ``DocumentMigrations`` step
    /// from version `failedStep` failed for `reason` (it threw, its input did not decode, or the
    /// app has no such step). The document was left in place, unchanged; the store started
    /// from its default, and writes of this document fail with this error, so that it is never
    /// overwritten, until the app can migrate it.
    case migrationFailed(file: URL, from: Int, failedStep: Int, reason: String)

    /// The value could not be encoded as JSON (for example a `Double.nan`); nothing was
    /// written.
    case encodingFailed(key: String, reason: String)

    /// The document could not be written; the file on disk is unchanged.
    case writeFailed(file: URL, reason: String)

    /// The new version was written, but the system reported an error while flushing it to the
    /// disk (`reason`): it is what other processes read now, yet a power cut before the next
    /// successful save may bring back the version before it. Save again to make it durable.
    case notDurable(file: URL, reason: String)

    /// The document is there but could not be read: permission denied, no free file
    /// descriptor, no memory, a disk error, it is a symbolic link (never followed), or it
    /// belongs to another user (never read as yours). It was left where it is, unchanged, and
    /// nothing was written.
    case readFailed(file: URL, reason: String)

    /// The document is bad but could not be moved aside — or, not being in the library's
    /// format in a folder the library did not make for itself, may be another program's file
    /// and was not moved; it is still in place, unchanged, and nothing was written.
    case keepAsideFailed(file: URL, reason: String)

    /// The lock file that serialises writers could not be opened or locked; nothing was read
    /// or written.
    case lockFailed(file: URL, reason: String)

    /// Another process held the store's lock file for the whole of `waited`, the storage's
    /// lock timeout (see ``FileStorage/lockTimeout``), with no other writer getting on; nothing
    /// was read or written. `holder`
    /// is that process's id, where the system tells (Linux); `nil` elsewhere.
    ///
    /// When the lock file was removed or replaced while another process was writing under it,
    /// that process is found by its unfinished temporary file instead: then `file` is that
    /// temporary file (`<key>~w-<lock>-<id>.tmp`, locked by that process while it writes) and
    /// `holder` that process's id, where the system tells.
    ///
    /// Nothing is lost: try again when the other process has finished.
    case lockTimedOut(file: URL, holder: Int32?, waited: Duration)

    /// A storage reached over a network could not reach its backend — `backend` names it as the
    /// storage describes itself (a host, a port and a database; never a password) — or lost it
    /// before anything was committed: nothing was read or changed.
    case backendUnreachable(backend: String, reason: String)

    /// The connection to `backend` dropped while the transaction on the document under `key`
    /// was committing, and whether the commit happened could not be found out: the change may
    /// be in place or not. Read the document to see.
    case commitOutcomeUnknown(backend: String, key: String, reason: String)

    /// The document the problem is about, when there is one.
    public var file: URL? {
        switch self {
        case .invalidKey, .encodingFailed, .backendUnreachable, .commitOutcomeUnknown: nil
        case .folderUnavailable(let folder, _): folder
        case .unreadable(let file, _, _), .corrupted(let file, _, _),
            .newerFormat(let file, _, _, _), .newerValueVersion(let file, _, _, _),
            .newerFormatLeftInPlace(let file, _, _), .newerValueVersionLeftInPlace(let file, _, _),
            .documentOfAnotherStore(let file, _, _), .migrationFailed(let file, _, _, _), .writeFailed(let file, _),
            .notDurable(let file, _), .readFailed(let file, _),
            .keepAsideFailed(let file, _), .lockFailed(let file, _), .lockTimedOut(let file, _, _):
            file
        }
    }

    /// Where a bad document was kept, for the cases that move one aside.
    public var keptFile: URL? {
        switch self {
        case .unreadable(_, let kept, _), .corrupted(_, let kept, _), .newerFormat(_, _, _, let kept),
            .newerValueVersion(_, _, _, let kept):
            kept
        default: nil
        }
    }

    /// Whether this is a document left in place that the store may not write: every write of
    /// it throws this error until the document changes (a newer version of the app, another
    /// store, a migration that failed).
    ///
    /// Check it before something that can't be taken back, such as a payment, whose result
    /// must then be written:
    ///
    /// ```swift
    /// if let problem = try storage.load(Credits.document).recovery, problem.refusesWrites {
    ///     throw problem  // refuse before charging: the credits could not be written
    /// }
    /// ```
    public var refusesWrites: Bool {
        switch self {
        case .newerFormatLeftInPlace, .newerValueVersionLeftInPlace, .documentOfAnotherStore, .migrationFailed: true
        default: false
        }
    }
}

extension StorageError: CustomStringConvertible {
    /// What happened and what to do about it, in one paragraph.
    ///
    /// Its control and formatting characters — in a reason a storage or a server gave, a key, a
    /// path — are shown as escapes (`\u{1B}`, `\n`), so that printed it is one line that says
    /// what it holds and cannot change a terminal's state.
    public var description: String {
        "\(problem) \(advice)".escapingControlCharactersLeavingBackslashes
    }

    /// What happened, naming the files involved.
    var problem: String {
        switch self {
        case .invalidKey(let key, let reason):
            "The name “\(key)” can't be used: \(reason)."
        case .folderUnavailable(let folder, let reason):
            "The data folder \(folder.shownLocation) can't be used: \(reason)."
        case .unreadable(let file, let kept, let reason):
            "The saved data at \(file.shownLocation) could not be read (\(reason)). It was moved to "
                + "\(kept.shownLocation) and the app started from its defaults."
        case .corrupted(let file, let kept, let reason):
            "The saved data at \(file.shownLocation) is damaged (\(reason)). It was moved to "
                + "\(kept.shownLocation) and the app started from its defaults."
        case .newerFormat(let file, let found, let supported, let kept):
            "The saved data at \(file.shownLocation) was written by a newer version of the app "
                + "(format \(found); this version reads up to format \(supported)). It was not "
                + "changed: it was moved to \(kept.shownLocation) and this version started from its defaults."
        case .newerValueVersion(let file, let found, let supported, let kept):
            "The saved data at \(file.shownLocation) was written by a newer version of the app "
                + "(value version \(found); this version knows up to version \(supported)). It was not "
                + "changed: it was moved to \(kept.shownLocation) and this version started from its defaults."
        case .newerFormatLeftInPlace(let file, let found, let supported):
            "The saved data at \(file.shownLocation) was written by a newer version of the app (format \(found); this "
                + "version reads up to format \(supported)). It was left in place, unchanged: this version shows "
                + "its defaults and will not change it."
        case .newerValueVersionLeftInPlace(let file, let found, let supported):
            "The saved data at \(file.shownLocation) was written by a newer version of the app (value version \(found); "
                + "this version knows up to version \(supported)). It was left in place, unchanged: this version "
                + "shows its defaults and will not change it."
        case .documentOfAnotherStore(let file, let owner, let store):
            "The saved data at \(file.shownLocation) belongs to another store (“\(StorageNotice.shown(owner))”), not to this "
                + "one (“\(StorageNotice.shown(store))”): two stores use the key “\(Self.key(ofDocument: file))”. It was "
                + "left in place, unchanged: this store shows its defaults and will not change it."
        case .migrationFailed(let file, let from, let step, let reason):
            "The saved data at \(file.shownLocation) holds version \(from) of its value, and migrating it failed "
                + "at the step from version \(step) to \(step + 1): \(reason). It was left in place, unchanged; "
                + "the app started from its defaults and will not overwrite it."
        case .encodingFailed(let key, let reason):
            "The value of the store “\(key)” could not be saved as JSON: \(reason)."
        case .writeFailed(let location, let reason) where !location.isFileURL:
            "The document \(location.absoluteString) could not be written: \(reason). It is unchanged."
        case .writeFailed(let file, let reason):
            "The saved data at \(file.shownLocation) could not be written: \(reason). The file on disk is unchanged."
        case .notDurable(let location, let reason) where !location.isFileURL:
            "The document \(location.absoluteString) was written, but the storage could not make sure it is kept: "
                + "\(reason). A failure of the storage may bring back the version before it."
        case .notDurable(let file, let reason):
            "The saved data at \(file.shownLocation) was written, but flushing it to the disk failed: \(reason). "
                + "A power cut may bring back the version before it."
        case .lockFailed(let location, let reason) where !location.isFileURL:
            "The lock of the document \(location.absoluteString) could not be taken: \(reason). The document was not "
                + "read or changed."
        case .lockFailed(let file, let reason):
            "The lock file \(file.shownLocation) could not be locked: \(reason). The saved data was not read or changed."
        case .lockTimedOut(let file, let holder, let waited) where Self.isTemporaryFile(file):
            "The \(Self.storeName(ofLockFile: file)) store is being written by another process"
                + (holder.map { " (pid \($0))" } ?? "")
                + ", whose unfinished write \(file.shownLocation) did not end within \(Self.describe(waited)). "
                + "Nothing was read or changed."
        case .lockTimedOut(let location, _, let waited) where !location.isFileURL:
            "The document \(location.absoluteString) was held by another writer for more than "
                + "\(Self.describe(waited)). Nothing was read or changed."
        case .lockTimedOut(let file, let holder, let waited):
            "The \(Self.storeName(ofLockFile: file)) store is held by another process"
                + (holder.map { " (pid \($0))" } ?? "")
                + ", which kept its lock file \(file.shownLocation) for more than \(Self.describe(waited)). "
                + "Nothing was read or changed."
        case .readFailed(let location, let reason) where !location.isFileURL:
            "The document \(location.absoluteString) could not be read: \(reason). It was left in place, unchanged."
        case .readFailed(let file, let reason):
            "The saved data at \(file.shownLocation) could not be read: \(reason). It was left in place, unchanged."
        case .keepAsideFailed(let location, let reason) where !location.isFileURL:
            "The document \(location.absoluteString) can't be used and could not be kept aside: \(reason). It is "
                + "still in place, unchanged, and nothing was written."
        case .keepAsideFailed(let file, let reason):
            "The saved data at \(file.shownLocation) can't be used and could not be moved aside: \(reason). "
                + "It is still in place, unchanged, and nothing was written."
        case .backendUnreachable(let backend, let reason):
            "The storage \(backend) can't be reached: \(reason). Nothing was read or changed."
        case .commitOutcomeUnknown(let backend, let key, let reason):
            "The connection to \(backend) was lost while a change of the store “\(key)” was being committed "
                + "(\(reason)), and whether it was committed could not be found out."
        }
    }

    /// What the user or developer should do next.
    var advice: String {
        switch self {
        case .invalidKey(_, let reason) where !reason.hasPrefix("a store name"):
            "Choose a name of the form the reason gives."
        case .invalidKey:
            "Use 1–120 letters, digits, dots, underscores or hyphens, not starting with a dot and without “..”."
        case .folderUnavailable:
            "Check that the folder is a folder that belongs to you and is writable by you (move away any file "
                + "in its place), or choose another one "
                + "with the \(FileStorage.environmentVariable) environment variable."
        case .unreadable(_, let kept, _) where !kept.isFileURL:
            "Look at what the kept document is; to restore it, copy it back in its place while no app writes it."
        case .unreadable:
            "Look at what the kept item is; to restore a document, quit the app and put a regular file back in its place."
        case .corrupted(_, let kept, _) where !kept.isFileURL:
            "If you need the old data, repair the kept document and copy it back in its place while no app "
                + "writes it; otherwise you may delete it."
        case .corrupted:
            "If you need the old data, repair the kept file and move it back while the app is closed; "
                + "otherwise you may delete it."
        case .newerFormat(_, _, _, let kept) where !kept.isFileURL, .newerValueVersion(_, _, _, let kept) where !kept.isFileURL:
            "Update the app to the newest version everywhere it runs, then copy the kept document back in its place."
        case .newerFormat, .newerValueVersion:
            "Update the app to the newest version, then quit it and move the kept file back."
        case .newerFormatLeftInPlace, .newerValueVersionLeftInPlace:
            "Update the app to the newest version: it will read the saved data as it was. Nothing was lost."
        case .documentOfAnotherStore(_, let owner, _):
            "Give one of the two stores another key. If this store's value type was renamed, give its "
                + "StoreDocument the identity “\(StorageNotice.shown(owner))” to keep reading the saved data."
        case .migrationFailed(let location, _, _, _) where !location.isFileURL:
            "This is a bug in the app's migration of its saved data: report it. An update that fixes the "
                + "step will migrate the document; it is kept as it is meanwhile."
        case .migrationFailed:
            "This is a bug in the app's migration of its saved data: report it. An update that fixes the "
                + "step will migrate the file; a copy of it is safe to keep meanwhile."
        case .encodingFailed(_, let reason) where reason.contains(DocumentDate.outOfRangeMarker):
            "Check the device's date and time, then try again. The previous saved data is still in place."
        case .encodingFailed:
            "This is a bug in the app: report it. The previous saved data is still in place."
        case .writeFailed(let location, _) where !location.isFileURL, .lockFailed(let location, _) where !location.isFileURL,
            .readFailed(let location, _) where !location.isFileURL:
            "Mend what the reason names (it is the storage's own word on it), then try again."
        case .writeFailed:
            "Check that the disk is not full and that the folder is writable by you, then try again."
        case .notDurable(let location, _) where !location.isFileURL:
            "Check what the reason names, then save again: a save that succeeds makes the current value durable."
        case .notDurable:
            "Check the disk, then save again: a save that succeeds makes the current value durable."
        case .lockFailed:
            "Check that the folder is writable by you, and that the app has free file descriptors and the "
                + "disk is working; then try again."
        case .lockTimedOut(let file, _, _) where Self.isTemporaryFile(file):
            "Try again when that process has finished; nothing was lost. If it never finishes, it may be "
                + "stopped or hung: quit it. If no copy of the app is running, the file was left by one that "
                + "was killed (in another container sharing the folder, say): remove it."
        case .lockTimedOut(let location, _, _) where !location.isFileURL:
            "Try again when the other writer has finished; nothing was lost."
        case .lockTimedOut:
            "Try again when that process has finished; nothing was lost. If it never finishes, it may be "
                + "stopped or hung: quit it (do not remove the lock file while any process uses the folder)."
        case .readFailed(_, let reason) where reason.contains(DocumentFile.otherOwnerMarker):
            "Move the file away if it is not yours; the app will not use it while it is there."
        case .readFailed:
            "Check that the file and its folder are readable by you, and that the app has free file "
                + "descriptors and memory and the disk is working; then try again."
        case .keepAsideFailed(_, let reason) where reason.contains(FileStorage.notOursReason):
            "Move the file away yourself while the app is closed (or choose another data folder); then try again."
        case .keepAsideFailed(let location, _) where !location.isFileURL:
            "Mend what the reason names, or move the document away yourself while no app writes it; then try again."
        case .keepAsideFailed:
            "Check that the folder is writable by you, or move the file away yourself while the app "
                + "is closed; then try again."
        case .backendUnreachable:
            "Check that the server runs and that its address, port and credentials are right, then try again."
        case .commitOutcomeUnknown:
            "Read the store's value before doing anything that can't be taken back: the change may or may not be "
                + "there. Do not repeat a payment or a spend without that look."
        }
    }
}

extension StorageError {
    /// The store a lock file `<key>.lock` or a temporary file `<key>~w-<lock>-<id>.tmp` belongs
    /// to: its key.
    static func storeName(ofLockFile file: URL) -> String {
        let name = file.lastPathComponent
        if isTemporaryFile(file), let key = name.split(separator: "~", maxSplits: 1).first { return String(key) }
        return name.hasSuffix(".lock") ? String(name.dropLast(".lock".count)) : name
    }

    /// Whether `file` is named as a writer's temporary file, `<key>~w-<lock>-<id>.tmp` (see
    /// ``TemporaryNames/isTemporaryName(_:forKey:)``).
    package static func isTemporaryFile(_ file: URL) -> Bool {
        let name = file.lastPathComponent
        guard let key = name.split(separator: "~", maxSplits: 1).first, key.count < name.count else { return false }
        return TemporaryNames.isTemporaryName(name, forKey: String(key))
    }

    /// The key of the document `file`, `<key>.json`.
    static func key(ofDocument file: URL) -> String {
        let name = file.lastPathComponent
        return name.hasSuffix(".json") ? String(name.dropLast(".json".count)) : name
    }

    /// A wait in words: "5 seconds", "0.25 seconds", "1 second".
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(
            0, seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000)
        if milliseconds == 1000 { return "1 second" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) seconds" }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: max(0, 3 - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction) seconds"
    }
}

extension StorageError: LocalizedError {
    /// The problem, naming the files involved.
    public var errorDescription: String? { problem.escapingControlCharactersLeavingBackslashes }

    /// What to do next.
    public var recoverySuggestion: String? { advice.escapingControlCharactersLeavingBackslashes }
}

extension URL {
    /// The file-system path, without percent encoding.
    var filePath: String { path(percentEncoded: false) }

    /// How a message shows a document's location: a file's path, or the address a storage
    /// without files gives (such as `postgres://db.example.com:5432/app/stores/settings`).
    var shownLocation: String { isFileURL ? filePath : absoluteString }
}
