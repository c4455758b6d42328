import Foundation
import SingletonStoresLocking

/// Something ``FileStorage`` did or found on its own that the user should know about, though
/// the call it happened in went on and succeeded.
///
/// A storage reports notices to the closure given to ``FileStorage/init(folder:appName:environment:now:lockTimeout:reportNotice:)``,
/// which prints them to standard error by default:
///
/// ```swift
/// let storage = FileStorage(reportNotice: { notice in logger.warning("\(notice)") })
/// ```
public enum StorageNotice: Sendable, Equatable, CustomStringConvertible {
    /// Other users could read or change files in the data folder, so its permissions were
    /// changed to `0700` (only you). `previousMode` holds the permission bits it had, such as
    /// `0o777`.
    case folderMadePrivate(folder: URL, previousMode: Int)

    /// Other users can access the data folder and it was not made private: its permissions
    /// could not be changed, or it is a shared folder with the sticky bit (such as `/tmp`),
    /// where others cannot touch the library's files. The folder is used as it is. Reported
    /// once per folder and process.
    case folderNotPrivate(folder: URL, mode: Int, reason: String)

    /// The document `file` held version `from` of its value and was migrated to version `to`
    /// by the store's ``DocumentMigrations``; the document as it was is kept at `backup`.
    case documentMigrated(file: URL, from: Int, to: Int, backup: URL)

    /// `SINGLETON_STORES_LOCK_TIMEOUT` (``FileStorage/lockTimeoutEnvironmentVariable``) is set to
    /// `value`, which is not a number of seconds (it is empty, `nan` or other text), so it is
    /// ignored and writes wait the default ``FileStorage/defaultLockTimeout``. Reported once per
    /// process and value, by the first storage that reads it.
    case lockTimeoutIgnored(value: String)

    /// Prints the notice to standard error, prefixed with `SingletonStores:`.
    public static let printToStandardError: @Sendable (StorageNotice) -> Void = { notice in
        writeLineToStandardError("SingletonStores: \(notice)")
    }

    /// What happened and what, if anything, to do.
    public var description: String {
        switch self {
        case .folderMadePrivate(let folder, let mode):
            "The data folder \(folder.filePath) could be read or changed by other users (permissions "
                + "\(Self.octal(mode))); it was made private (0700). If another user may have changed "
                + "the files in it, check them."
        case .folderNotPrivate(let folder, let mode, let reason):
            "The data folder \(folder.filePath) can be read by other users (permissions \(Self.octal(mode))) "
                + "and was not made private: \(reason). If the folder is yours alone, make it private with chmod 700; "
                + "otherwise choose a folder only you can enter with the \(FileStorage.environmentVariable) "
                + "environment variable."
        case .lockTimeoutIgnored(let value):
            "\(FileStorage.lockTimeoutEnvironmentVariable) is set to \"\(Self.shown(value))\", which is not a number of "
                + "seconds, so it is ignored: a write waits up to \(FileStorage.defaultLockTimeout.components.seconds) "
                + "seconds for another process's lock. Set it to a number of seconds from 0 to "
                + "\(FileStorage.maximumLockTimeout.components.seconds), such as 0.5, or unset it."
        case .documentMigrated(let file, let from, let to, let backup):
            "The saved data at \(file.filePath) was migrated from version \(from) of its value to version "
                + "\(to); the file as it was is kept at \(backup.filePath). Once the app works as expected, "
                + "you may delete that copy."
        }
    }

    /// Text from the environment as a message shows it: control characters escaped, cut after
    /// 100 characters.
    static func shown(_ text: String) -> String {
        let escaped = text.escapingControlCharacters
        return escaped.count > 100 ? "\(escaped.prefix(100))…" : escaped
    }

    /// Permission bits as `0755`.
    static func octal(_ mode: Int) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
