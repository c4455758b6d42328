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
    /// The folder to use, by precedence: `explicit`, then the folder the app `declared` for
    /// every store (``StoreValues/dataFolder``), then the ``FileStorage/environmentVariable``,
    /// then the platform's per-user data folder plus `appName`.
    static func resolve(explicit: URL?, declared: URL? = nil, appName: String, environment: [String: String]) -> URL {
        if let explicit { return explicit.standardizedFileURL }
        if let declared { return declared.standardizedFileURL }
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
    /// Its path must be one no one but the user or root can change (see ``TrustedPath``): the
    /// folder may be, or lie under, a symbolic link the user or root made (that is followed, and
    /// its target checked the same way), but not one of another user, nor a folder others can
    /// change without the sticky bit. The folder itself must belong to the current user, and
    /// its path must leave room for the names of the files kept in it. Only before a write
    /// (`creating`), and only when the folder is the library's own (see ``isOwn(_:)``), a folder
    /// others can access is made private (`0700`); that is `report`ed when others could change
    /// it. A folder that is not the library's own is never changed: a write is refused when
    /// others can change files in it, unless it has the sticky bit (a shared folder such as
    /// `/tmp`, reported once).
    ///
    /// The walk and everything done to the folder here — creating it and its missing parents
    /// (`mkdirat`), making it private (`fchmod`), writing its marker — go through descriptors of
    /// the folders the walk checked (see ``TrustedPath``), so a link planted meanwhile redirects
    /// nothing. The reads and writes that follow name files by the folder's path: the walk proved
    /// that only the user or root can change any folder on that path, and the folder itself is
    /// the user's (in a shared folder with the sticky bit, no one else can rename or replace it),
    /// so that path leads to the folder that was checked.
    ///
    /// - Returns: Whether the folder exists (always `true` when `creating`).
    /// - Throws: ``StorageError/folderUnavailable(folder:reason:)`` when its path can't be
    ///   trusted, a file is in the way, the folder belongs to another user, its path is too long,
    ///   others can change it and it can't be made private, or it can't be created.
    static func prepare(
        _ folder: URL, creating: Bool, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) -> Bool {
        try prepare(folder, path: folder.filePath, creating: creating, report: report)
    }

    /// ``prepare(_:creating:report:)`` of `folder`, whose path (`folder.filePath`) is `path`.
    static func prepare(
        _ folder: URL, path: String, creating: Bool, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        let path = trimmed(path)
        if CheckedFolders.isStillChecked(path) { return true }
        if let problem = lengthProblem(of: path) ?? roomProblem(of: path) {
            throw .folderUnavailable(folder: folder, reason: problem)
        }
        switch try walk(folder, path) {
        case .exists(let opened, let info):
            try checkOwnerAndMode(folder, opened, info, tightening: creating, report: report)
            CheckedFolders.remember(path, info)
            return true
        case .missing(let existing, let names):
            guard creating else { return false }
            try makeFolders(folder, under: existing, names: names, report: report)
            return true
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

    /// The name of the file that marks a folder as the library's own: it is written in each data
    /// folder the library creates.
    static let markerName = ".singleton-stores-folder"

    /// What the marker file says, for a person who finds it.
    static let markerText = Data(
        """
        This folder was made by SingletonStores for its documents. A file in it that is not a
        document SingletonStores can read may be moved aside (renamed with ~corrupt-<time>).

        """.utf8)

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Folders whose "could not be made private" notice was already reported by this process.
    private static let reportedFolders = Locked<Set<String>>([])

    /// Refuses a folder of another user. Before a write (`tightening`), makes a folder that
    /// others can access private — but only the library's own (see ``isOwn(_:)``) or an empty
    /// one, never a shared folder with the sticky bit. A folder it did not make for itself (a
    /// home folder, `/tmp`, `/`) is never changed, and a read never changes any folder.
    ///
    /// `opened` is the folder the walk checked, `info` its `fstat`: it is looked at and changed
    /// through that descriptor only.
    private static func checkOwnerAndMode(
        _ folder: URL, _ opened: OpenFolder, _ info: stat, tightening: Bool, report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) {
        let me = geteuid()
        if info.st_uid != me {
            throw .folderUnavailable(
                folder: folder,
                reason: "it belongs to another user (uid \(info.st_uid)), not to you (uid \(me)), so its files can't be trusted")
        }
        guard tightening else { return }
        let mode = Int(info.st_mode & 0o7777)
        let othersCanChange = mode & 0o022 != 0
        if mode & Int(S_ISVTX) != 0 {
            // A shared folder such as /tmp: others may add files, but not touch ours.
            if mode & 0o077 != 0 {
                reportOnce(folder, .folderNotPrivate(folder: folder, mode: mode, reason: sharedFolderReason), report: report)
            }
            return
        }
        guard mode & 0o077 != 0 else { return }
        // An empty folder is as good as the library's own: nothing in it is anyone else's.
        let own = isOwn(opened) || firstEntry(in: opened) == nil
        if !own {
            guard othersCanChange else { return }  // readable by others only; documents are 0600
            let holding = firstEntry(in: opened).map { ", and it holds \($0.escapingControlCharacters)" } ?? ""
            throw .folderUnavailable(
                folder: folder,
                reason: "other users can change files in it (permissions \(StorageNotice.octal(mode)))\(holding); "
                    + "this library did not make it for itself, so it was left as it is. "
                    + "Choose a folder only you can change, or make this one private with chmod 700")
        }
        if let failure = makePrivate(opened) {
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

    /// Whether `folder` is the library's own: it holds the marker file (``markerName``), a
    /// regular file of the current user with no other name. In such a folder a file in a
    /// document's place that is not in the library's format may be kept aside; elsewhere it is
    /// never renamed or removed.
    static func isOwn(_ folder: URL) -> Bool {
        guard let opened = OpenFolder.at(folder.filePath) else { return false }
        return isOwn(opened)
    }

    /// ``isOwn(_:)`` of the folder open as `folder`.
    static func isOwn(_ folder: OpenFolder) -> Bool {
        guard let info = folder.info(of: markerName) else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid() && info.st_nlink == 1
    }

    /// Makes the folder open as `folder` the library's own by writing its marker file
    /// (``markerName``) in it; returns whether it now is.
    @discardableResult
    static func adopt(_ folder: OpenFolder) -> Bool {
        let marker = openat(folder.descriptor, markerName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if marker < 0 { return errno == EEXIST && isOwn(folder) }
        defer { close(marker) }
        _ = fchmod(marker, 0o600)
        DocumentFile.writeMarker([UInt8](markerText), to: marker)
        return true
    }

    /// The first name in the folder open as `folder` other than the marker file, or `nil` when
    /// it holds nothing else. A folder that can't be listed counts as holding something (its
    /// path).
    static func firstEntry(in folder: OpenFolder) -> String? {
        var first: String?
        let listed = forEachName(in: folder) { name in
            if name == markerName { return true }
            first = name
            return false
        }
        return listed ? first : folder.path
    }

    /// Calls `body` with each name in the folder open as `folder` (`.` and `..` left out) until
    /// it returns `false`; returns whether the folder could be listed.
    @discardableResult
    static func forEachName(in folder: OpenFolder, _ body: (String) -> Bool) -> Bool {
        let descriptor = folder.readable()
        if descriptor < 0 { return false }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if !body(name) { break }
        }
        return true
    }

    /// Sets the permissions of the folder open as `folder` to `0700`; returns why not.
    private static func makePrivate(_ folder: OpenFolder) -> String? {
        let descriptor = folder.readable()
        if descriptor < 0 { return DocumentFile.describe(errno) }
        defer { close(descriptor) }
        if fchmod(descriptor, 0o700) != 0 { return DocumentFile.describe(errno) }
        return nil
    }

    /// Creates the folders `names` under the existing folder `existing`, each `0700`, marks the
    /// last — `folder` — as the library's own, and checks it.
    ///
    /// Each folder is made with `mkdirat` in the one above it, held open, then opened with
    /// `O_NOFOLLOW` and checked before anything is made in it: a folder or link someone else
    /// put in a name's place meanwhile is refused, and nothing is created in it or through it.
    private static func makeFolders(
        _ folder: URL, under existing: OpenFolder, names: [String], report: @Sendable (StorageNotice) -> Void
    ) throws(StorageError) {
        let me = geteuid()
        var parent = existing
        var createdIt = false
        FaultInjection.reach(.dataFolderChecked(trimmed(folder.filePath)))
        for (index, name) in names.enumerated() {
            let path = (parent.path == "/" ? "" : parent.path) + "/" + name
            createdIt = mkdirat(parent.descriptor, name, 0o700) == 0
            let code = createdIt ? 0 : errno
            if !createdIt, code != EEXIST {
                throw .folderUnavailable(
                    folder: folder,
                    reason: "\(path.escapingControlCharacters) could not be created: \(DocumentFile.describe(code))")
            }
            // Made here, or by another process meanwhile, or put there by someone else: what is
            // there now is opened without following a link, and checked.
            guard let opened = parent.openFolder(name), let info = opened.info() else {
                let code = errno
                let reason =
                    code == ELOOP || code == ENOTDIR
                    ? "something other than a folder was put at \(path.escapingControlCharacters) while it was being created"
                    : "\(path.escapingControlCharacters) could not be opened: \(DocumentFile.describe(code))"
                throw .folderUnavailable(folder: folder, reason: reason)
            }
            let isLast = index == names.count - 1
            if createdIt {
                // The new folder's name is durable only once the folder it was made in is synced:
                // without it, a crash after the first acknowledged write could lose the folder.
                parent.syncNames()
                guard info.st_uid == me else {
                    throw .folderUnavailable(
                        folder: folder, reason: "\(path.escapingControlCharacters) was replaced while it was being created")
                }
                if info.st_mode & 0o7777 != 0o700 { _ = makePrivate(opened) }  // the umask may have narrowed it
            } else {
                do { try TrustedPath.checkFolder(path, info, me: me, isLast: isLast) } catch {
                    throw .folderUnavailable(folder: folder, reason: error.reason)
                }
            }
            parent = opened
        }
        guard let info = parent.info() else {
            throw .folderUnavailable(folder: folder, reason: "it could not be looked at: \(DocumentFile.describe(errno))")
        }
        if createdIt, info.st_uid == me { adopt(parent) }
        try checkOwnerAndMode(folder, parent, info, tightening: true, report: report)
    }

    /// ``TrustedPath/walk(_:)`` of `path`, its refusal as the folder's error —
    /// ``StorageError/readFailed(file:reason:)`` when the process is out of file descriptors
    /// (the walk holds the folders it checks open).
    private static func walk(_ folder: URL, _ path: String) throws(StorageError) -> TrustedPath.Walk {
        do { return try TrustedPath.walk(path) } catch {
            // Out of file descriptors: nothing is wrong with the folder, and nothing was read.
            if let code = error.code { throw .readFailed(file: folder, reason: DocumentFile.describe(code)) }
            throw .folderUnavailable(folder: folder, reason: error.reason)
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

    /// Why the folder at `path` is too deep for the files the library keeps in it — its path,
    /// a slash and a name of up to ``maximumNameLength`` bytes would be longer than
    /// ``maximumPathLength`` — or `nil` when there is room.
    static func roomProblem(of path: String) -> String? {
        let length = path.utf8.count
        let room = maximumPathLength - 1 - maximumNameLength
        guard length > room else { return nil }
        return "its path is \(length) bytes long, which leaves no room for the names of the files kept in it "
            + "(the system allows \(maximumPathLength) bytes in all, and a folder's path may take up to \(room), "
            + "so that its files' names fit); choose a folder with a shorter path"
    }

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

    /// `path` without a trailing slash (except for `/` itself).
    static func trimmed(_ path: String) -> String {
        guard path.utf8.last == UInt8(ascii: "/") else { return path }  // the usual case, at no cost
        var path = path
        while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }
    #endif
}
