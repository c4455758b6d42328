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

    /// The app name used when none is given: on Apple platforms the bundle identifier, else
    /// the process name.
    ///
    /// Elsewhere there is no bundle identifier, and Foundation's `Bundle.main` traps in a
    /// process that can no longer look at its own executable's folder (one that changed user,
    /// in a private checkout): it is not consulted there.
    static var defaultAppName: String {
        #if canImport(Darwin)
        let name = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        #else
        let name = ProcessInfo.processInfo.processName
        #endif
        return StorageKey.sanitized(name, fallback: "SingletonStores")
    }

    /// Checks that `folder` can be trusted, creating it (and missing parents, each `0700`
    /// whatever the umask) when `creating` is set.
    ///
    /// The folder may be, or lie under, a symbolic link the user made: that is followed. The
    /// folder itself must belong to the current user. Only before a write (`creating`), and
    /// only when the folder is the library's own (it holds nothing but the library's files and
    /// has no sticky bit), a folder others can access is made private (`0700`); that is
    /// `report`ed when others could change it. A folder that holds other files is never
    /// changed: a write is refused when others can change files in it, unless it has the
    /// sticky bit (a shared folder such as `/tmp`, reported once).
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
            try checkOwnerAndMode(folder, info, tightening: creating, report: report)
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

    /// Refuses a folder of another user. Before a write (`tightening`), makes a folder that
    /// others can access private — but only one that is the library's own: it holds nothing but
    /// the library's documents (or nothing at all) and is not a shared folder with the sticky
    /// bit. A folder it did not make for itself (a home folder, `/tmp`, `/`) is never changed,
    /// and a read never changes any folder.
    private static func checkOwnerAndMode(
        _ folder: URL, _ info: stat, tightening: Bool, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) {
        let me = geteuid()
        if info.st_uid != me {
            throw .folderUnavailable(
                folder: folder,
                reason: "it belongs to another user (uid \(info.st_uid)), not to you (uid \(me)), so its files can't be trusted")
        }
        let mode = Int(info.st_mode & 0o7777)
        guard tightening, mode & 0o077 != 0 else { return }
        let othersCanChange = mode & 0o022 != 0
        if mode & Int(S_ISVTX) != 0 {
            // A shared folder such as /tmp: others may add files, but not touch ours.
            reportOnce(folder, .folderNotPrivate(folder: folder, mode: mode, reason: sharedFolderReason), report: report)
            return
        }
        if let stranger = firstForeignEntry(in: folder) {
            guard othersCanChange else { return }  // readable by others only; documents are 0600
            throw .folderUnavailable(
                folder: folder,
                reason: "other users can change files in it (permissions \(StorageNotice.octal(mode))), and it holds "
                    + "\(stranger.escapingControlCharacters), which is not this library's, so it was left as it is. "
                    + "Choose a folder only you can change, or make this one private with chmod 700")
        }
        if let failure = makePrivate(folder, expected: info) {
            if othersCanChange {
                throw .folderUnavailable(
                    folder: folder,
                    reason: "other users can change files in it (permissions \(StorageNotice.octal(mode))) and it "
                        + "could not be made private: \(failure)")
            }
            reportOnce(folder, .folderNotPrivate(folder: folder, mode: mode, reason: failure), report: report)
            return
        }
        // Only a folder that others could change is worth a word: its files may not be the user's.
        if othersCanChange { report(.folderMadePrivate(folder: folder, previousMode: mode)) }
    }

    /// Why a folder with the sticky bit is left as it is.
    static let sharedFolderReason =
        "it is a shared folder (sticky bit set) that this library did not make, so its permissions are left as they are"

    /// Reports `notice` about `folder` once per process.
    private static func reportOnce(
        _ folder: URL, _ notice: StorageNotice, report: @Sendable (StorageNotice) -> Void
    ) {
        let first = reportedFolders.withLock { $0.insert(folder.filePath).inserted }
        if first { report(notice) }
    }

    /// The first name in `folder` that is not one of the library's files (documents, lock files,
    /// temporary and kept-aside files), or `nil` when every entry is the library's. A folder
    /// that can't be listed counts as holding something else.
    static func firstForeignEntry(in folder: URL) -> String? {
        guard let directory = opendir(folder.filePath) else { return folder.filePath }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if !isLibraryFileName(name) { return name }
        }
        return nil
    }

    /// Whether `name` is one the library gives its files: `<key>.json`, `<key>.lock`,
    /// `<key>~<id>.tmp` or `<key>~<reason>-<time>.json`.
    static func isLibraryFileName(_ name: String) -> Bool {
        let suffixes = [".json", ".lock", ".tmp"]
        guard let suffix = suffixes.first(where: { name.hasSuffix($0) }) else { return false }
        let stem = name.dropLast(suffix.count)
        let key = stem.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard StorageKey.problem(with: key) == nil else { return false }
        return stem.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "~", ":", "+": true
            default: false
            }
        }
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
                if path == target { try checkOwnerAndMode(folder, info, tightening: true, report: report) }
                continue
            }
            if mkdir(path, 0o700) == 0 {
                _ = chmod(path, 0o700)  // the umask may have narrowed it
                continue
            }
            let code = errno
            if code == EEXIST, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                // Another process created it meanwhile.
                if path == target { try checkOwnerAndMode(folder, info, tightening: true, report: report) }
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
