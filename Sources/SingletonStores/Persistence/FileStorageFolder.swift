#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

/// How ``FileStorage`` picks its data folder.
enum FileStorageFolder {
    /// The folder to use, by precedence: `explicit`, then the
    /// ``FileStorage/environmentVariable``, then the platform's per-user data folder plus
    /// `appName`.
    static func resolve(explicit: URL?, appName: String, environment: [String: String]) -> URL {
        if let explicit { return explicit.standardizedFileURL }
        if let path = environment[FileStorage.environmentVariable], !path.isEmpty {
            // A relative path is the user's explicit choice: resolve it against the current folder.
            return URL(filePath: path, directoryHint: .isDirectory).standardizedFileURL
        }
        return platformDataFolder(environment: environment).appending(path: appName, directoryHint: .isDirectory)
    }

    /// The per-user folder for application data.
    ///
    /// Apple platforms: Application Support. Elsewhere: `$XDG_DATA_HOME` if it is an absolute
    /// path (the XDG spec says to ignore a relative one), else `$HOME/.local/share`.
    static func platformDataFolder(environment: [String: String]) -> URL {
        #if canImport(Darwin)
        if let support = try? FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false
        ) {
            return support
        }
        return home(environment: environment).appending(path: "Library/Application Support", directoryHint: .isDirectory)
        #else
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(filePath: xdg, directoryHint: .isDirectory).standardizedFileURL
        }
        return home(environment: environment).appending(path: ".local/share", directoryHint: .isDirectory)
        #endif
    }

    /// `$HOME` if it is an absolute path, else the account's home folder.
    static func home(environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(filePath: home, directoryHint: .isDirectory).standardizedFileURL
        }
        return URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory)
    }

    /// The app name used when none is given: the bundle identifier, else the process name.
    static var defaultAppName: String {
        StorageKey.sanitized(
            Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
            fallback: "SingletonStores"
        )
    }

    /// Checks that `folder` can be trusted, creating it (and missing parents, each `0700`
    /// whatever the umask) when `creating` is set.
    ///
    /// The folder may be, or lie under, a symbolic link the user made: that is followed. The
    /// folder itself must belong to the current user; when others have access it is made
    /// private (`0700`) and `report`ed.
    ///
    /// - Returns: Whether the folder exists (always `true` when `creating`).
    /// - Throws: ``StorageError/folderUnavailable(folder:reason:)`` when a file is in the way,
    ///   the folder belongs to another user, others can change it and it can't be made private,
    ///   or it can't be created.
    static func prepare(
        _ folder: URL, creating: Bool, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let path = folder.filePath
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw .folderUnavailable(folder: folder, reason: "a file is in the way at \(trimmed(path))")
            }
            try checkOwnerAndMode(folder, info, report: report)
            return true
        }
        let code = errno
        switch code {
        case ENOENT where !creating:
            return false
        case ENOENT:
            try makeFolders(folder, report: report)
            return true
        case ENOTDIR:
            throw .folderUnavailable(folder: folder, reason: "a file is in the way at \(firstNonFolder(in: path))")
        default:
            throw .folderUnavailable(folder: folder, reason: DocumentFile.describe(code))
        }
        #else
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.filePath, isDirectory: &isFolder) {
            if isFolder.boolValue { return true }
            throw .folderUnavailable(folder: folder, reason: "a file is in the way at \(folder.filePath)")
        }
        guard creating else { return false }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            // Another process may have created it meanwhile.
            if FileManager.default.fileExists(atPath: folder.filePath, isDirectory: &isFolder), isFolder.boolValue {
                return true
            }
            throw .folderUnavailable(folder: folder, reason: error.localizedDescription)
        }
        return true
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Folders whose "could not be made private" notice was already reported by this process.
    private static let reportedFolders = Locked<Set<String>>([])

    /// Refuses a folder of another user; makes a folder others can access private.
    private static func checkOwnerAndMode(
        _ folder: URL, _ info: stat, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) {
        let me = geteuid()
        if info.st_uid != me {
            throw .folderUnavailable(
                folder: folder,
                reason: "it belongs to another user (uid \(info.st_uid)), not to you (uid \(me)), so its files can't be trusted")
        }
        let mode = Int(info.st_mode & 0o7777)
        guard mode & 0o077 != 0 else { return }
        if let failure = makePrivate(folder, expected: info) {
            if mode & 0o022 != 0 {
                throw .folderUnavailable(
                    folder: folder,
                    reason: "other users can change files in it (permissions \(StorageNotice.octal(mode))) and it "
                        + "could not be made private: \(failure)")
            }
            let first = reportedFolders.withLock { $0.insert(folder.filePath).inserted }
            if first { report(.folderNotPrivate(folder: folder, mode: mode, reason: failure)) }
            return
        }
        report(.folderMadePrivate(folder: folder, previousMode: mode))
    }

    /// Sets the permissions of the folder checked as `expected` to `0700`; returns why not.
    private static func makePrivate(_ folder: URL, expected: stat) -> String? {
        let descriptor = open(folder.filePath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor < 0 { return DocumentFile.describe(errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) != 0 { return DocumentFile.describe(errno) }
        if info.st_dev != expected.st_dev || info.st_ino != expected.st_ino {
            return "it was replaced while being checked"
        }
        if fchmod(descriptor, 0o700) != 0 { return DocumentFile.describe(errno) }
        return nil
    }

    /// Creates `folder` and its missing parents, each `0700`.
    ///
    /// A path the system cannot hold is refused before anything is created: otherwise the
    /// parents before an over-long name would be made, then left behind.
    private static func makeFolders(_ folder: URL, report: @Sendable (StorageNotice) -> Void) throws(StorageError) {
        let target = trimmed(folder.filePath)
        if let problem = lengthProblem(of: target) {
            throw .folderUnavailable(folder: folder, reason: problem)
        }
        for path in prefixes(of: target) {
            var info = stat()
            if stat(path, &info) == 0 {
                if (info.st_mode & S_IFMT) != S_IFDIR {
                    throw .folderUnavailable(folder: folder, reason: "a file is in the way at \(path)")
                }
                if path == target { try checkOwnerAndMode(folder, info, report: report) }
                continue
            }
            if mkdir(path, 0o700) == 0 {
                _ = chmod(path, 0o700)  // the umask may have narrowed it
                continue
            }
            let code = errno
            if code == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                // Another process created it meanwhile.
                if path == target { try checkOwnerAndMode(folder, info, report: report) }
                continue
            }
            throw .folderUnavailable(folder: folder, reason: "\(path) could not be created: \(DocumentFile.describe(code))")
        }
    }

    /// The longest name of a file or folder, in bytes (`NAME_MAX`).
    static let maximumNameLength = 255

    /// The longest path, in bytes, without its terminating zero (`PATH_MAX` - 1).
    #if canImport(Darwin)
    static let maximumPathLength = 1023
    #else
    static let maximumPathLength = 4095
    #endif

    /// Why `path` is too long for the file system (a name over ``maximumNameLength`` bytes, or the
    /// whole over ``maximumPathLength``), or `nil` when it is not.
    static func lengthProblem(of path: String) -> String? {
        let length = path.utf8.count
        if length > maximumPathLength {
            return "its path is \(length) bytes long, more than the \(maximumPathLength) the system allows"
        }
        for name in path.split(separator: "/") where name.utf8.count > maximumNameLength {
            return "the name \"\(name.prefix(40))…\" in its path is \(name.utf8.count) bytes long, more than the "
                + "\(maximumNameLength) the system allows"
        }
        return nil
    }

    /// The first ancestor of `path` (or `path` itself) that exists and is not a folder.
    private static func firstNonFolder(in path: String) -> String {
        for prefix in prefixes(of: trimmed(path)) {
            var info = stat()
            if stat(prefix, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { return prefix }
        }
        return trimmed(path)
    }

    /// `/a`, `/a/b`, `/a/b/c` for `/a/b/c` (relative paths likewise, without the leading slash).
    private static func prefixes(of path: String) -> [String] {
        let absolute = path.hasPrefix("/")
        var result: [String] = []
        var current = absolute ? "" : "."
        for part in path.split(separator: "/") {
            current = current.isEmpty && absolute ? "/\(part)" : "\(current)/\(part)"
            result.append(current)
        }
        return result
    }

    /// `path` without a trailing slash (except for `/` itself).
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
    #endif
}
