#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// A folder this process opened and checked: everything it then does in the folder goes
/// through this descriptor (`openat`, `mkdirat`, `unlinkat`, `fstatat`), never through the
/// folder's path again, so that no link planted in the path after the check can redirect it.
final class OpenFolder {
    /// The descriptor: on Linux opened with `O_PATH` (which needs no permission on the
    /// folder), elsewhere for reading; see ``readable()``.
    let descriptor: Int32
    /// The folder's path as the walk resolved it (links followed), for messages.
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens `name` in this folder as a folder, without following a link: `nil` (with `errno`)
    /// when it is not a folder, a link or gone.
    func openFolder(_ name: String) -> OpenFolder? {
        let child = openat(descriptor, name, OpenFolder.flags | O_NOFOLLOW)
        guard child >= 0 else { return nil }
        return OpenFolder(descriptor: child, path: (path == "/" ? "" : path) + "/" + name)
    }

    /// The folder above this one (`/` for `/`), opened through `..`: the folder this one is in
    /// now, whatever path led to it.
    func parent() -> OpenFolder? {
        guard path != "/" else { return self }
        let above = openat(descriptor, "..", OpenFolder.flags)
        guard above >= 0 else { return nil }
        let cut = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        return OpenFolder(descriptor: above, path: cut.isEmpty ? "/" : cut)
    }

    /// The `stat` of the folder itself.
    func info() -> stat? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info : nil
    }

    /// The `lstat` of `name` in this folder (a link is looked at, not followed); `nil` with
    /// `errno` set when there is nothing there or it can't be looked at.
    func info(of name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// A new descriptor of this very folder opened for reading — to list it (`fdopendir`) or
    /// change its mode (`fchmod`) — or -1 with `errno` set. The caller closes it.
    func readable() -> Int32 {
        openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Flushes this folder's names to disk (`fsync` of a descriptor opened for reading), so that
    /// a folder just made in it is still there after a crash; a failure is ignored, as the
    /// folder's own sync after a rename ignores it.
    func syncNames() {
        let readable = readable()
        if readable >= 0 {
            _ = DocumentFile.syncNames(ofFolder: readable)
            close(readable)
        }
    }

    /// The flags a folder is opened with.
    #if os(Linux)
    static let flags = pathOnly | O_DIRECTORY | O_CLOEXEC

    /// `O_PATH` (`010000000` on Linux but for a few architectures Swift does not run on), which
    /// Glibc's module does not export.
    private static let pathOnly: Int32 = 0o10_000_000
    #else
    static let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
    #endif

    /// Opens `/`.
    static func root() -> OpenFolder? {
        at("/")
    }

    /// Opens the folder at `path`, following links (for a folder whose path was proved, or
    /// to look at a folder's marker file).
    static func at(_ path: String) -> OpenFolder? {
        let descriptor = open(path, flags)
        return descriptor < 0 ? nil : OpenFolder(descriptor: descriptor, path: path)
    }
}

/// The walk that proves a data folder's path can be trusted, as OpenSSH's `StrictModes` does
/// for `~/.ssh`: no one but the user (or root) can change where it leads.
///
/// Every component, from `/` down, is looked at without following links, relative to a
/// descriptor of the folder above it that was checked already: a folder is opened with
/// `O_NOFOLLOW | O_DIRECTORY` and must be the very folder (device and inode) that was looked
/// at, so the walk ends with a descriptor of the folder it proved, through which the caller
/// acts. A folder on the way must belong to the user or root and must not be writable by others
/// (group or world) unless it has the sticky bit (`/tmp`), where others can add names but not
/// replace the user's. A symbolic link on the way must belong to the user or root; its target
/// is then walked the same way, component by component. Anything else — another user's folder
/// or link, a folder others can change, a file in the way, a loop of links, a folder replaced
/// while being checked — refuses the folder. The folder itself must be a folder of the user;
/// its own permissions are checked by ``FileStorageFolder``.
enum TrustedPath {
    /// What the walk found.
    enum Walk {
        /// The folder exists: it is open, and this is its `fstat`.
        case exists(OpenFolder, info: stat)
        /// The folder does not exist: the deepest folder that does, open, and the names still
        /// to create below it, in order.
        case missing(existing: OpenFolder, names: [String])
    }

    /// The most links a walk follows (Linux's own limit is 40).
    static let maximumLinks = 40

    /// Walks `path` (absolute, or relative to the current folder).
    ///
    /// - Throws: Why the path can't be trusted, as a clause for
    ///   ``StorageError/folderUnavailable(folder:reason:)``.
    static func walk(_ path: String) throws(TrustedPath.Refusal) -> Walk {
        let me = geteuid()
        var pending: [Substring] = []  // a stack: the next component last
        if !path.hasPrefix("/") {
            guard let current = currentFolder() else { throw Refusal("the current folder can't be found") }
            pending = current.split(separator: "/").reversed()
        }
        pending = path.split(separator: "/").reversed() + pending
        guard let root = OpenFolder.root(), var info = root.info() else {
            throw Refusal("/ can't be looked at: \(DocumentFile.describe(errno))", code: errno)
        }
        try checkFolder("/", info, me: me, isLast: pending.isEmpty)
        let rootInfo = info
        var current = root  // the folder reached so far, open
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                // The folder above the one reached, which the walk came down through.
                guard let above = current.parent(), let aboveInfo = above.info() else {
                    throw Refusal(
                        "the folder above \(shown(current.path)) can't be opened: \(DocumentFile.describe(errno))", code: errno)
                }
                current = above
                info = aboveInfo
                continue
            }
            let parent = current
            let candidate = (parent.path == "/" ? "" : parent.path) + "/" + name
            guard let found = parent.info(of: String(name)) else {
                let code = errno
                guard code == ENOENT else {
                    throw Refusal("\(shown(candidate)) can't be looked at: \(DocumentFile.describe(code))")
                }
                let rest = pending.reversed().filter { $0 != "." }
                guard !rest.contains("..") else {
                    throw Refusal("its path goes up (“..”) from \(shown(candidate)), which does not exist")
                }
                return .missing(existing: parent, names: [String(name)] + rest.map(String.init))
            }
            switch found.st_mode & S_IFMT {
            case S_IFLNK:
                guard found.st_uid == me || found.st_uid == 0 else {
                    throw Refusal(
                        "its path goes through the symbolic link \(shown(candidate)), which belongs to another user "
                            + "(uid \(found.st_uid)), not to you (uid \(me)) or root, so it can't be trusted")
                }
                links += 1
                guard links <= maximumLinks, let target = linkTarget(in: parent, String(name)) else {
                    throw Refusal("the symbolic links in its path (at \(shown(candidate))) can't be followed")
                }
                if target.hasPrefix("/") {
                    current = root
                    info = rootInfo
                }
                pending += target.split(separator: "/").reversed()
            case S_IFDIR:
                // Opened without following a link, and compared with what was looked at: a folder
                // swapped for a link or another folder in between is refused, never entered.
                guard let opened = parent.openFolder(String(name)), let openedInfo = opened.info() else {
                    let code = errno
                    guard code == ELOOP || code == ENOTDIR || code == ENOENT else {
                        throw Refusal("\(shown(candidate)) can't be opened: \(DocumentFile.describe(code))", code: code)
                    }
                    throw Refusal(
                        "\(shown(candidate)) was replaced while its path was being checked "
                            + "(\(DocumentFile.describe(code))); check who else can change it")
                }
                guard openedInfo.st_dev == found.st_dev, openedInfo.st_ino == found.st_ino else {
                    throw Refusal(
                        "\(shown(candidate)) was replaced while its path was being checked; check who else can change it")
                }
                info = openedInfo
                try checkFolder(candidate, info, me: me, isLast: pending.isEmpty)
                current = opened
            default:
                throw Refusal("a file is in the way at \(shown(candidate))")
            }
        }
        return .exists(current, info: info)
    }

    /// Refuses a folder on the way (not the last) that another user owns or others can change.
    /// The last one is the data folder itself: ``FileStorageFolder`` checks it.
    static func checkFolder(_ path: String, _ info: stat, me: uid_t, isLast: Bool) throws(Refusal) {
        guard !isLast else { return }
        guard info.st_uid == me || info.st_uid == 0 else {
            throw Refusal(
                "\(shown(path)) in its path belongs to another user (uid \(info.st_uid)), not to you (uid \(me)) "
                    + "or root, so it can't be trusted")
        }
        let mode = Int(info.st_mode & 0o7777)
        if mode & 0o022 != 0, mode & Int(S_ISVTX) == 0 {
            throw Refusal(
                "\(shown(path)) in its path can be changed by other users (permissions \(StorageNotice.octal(mode)), "
                    + "without the sticky bit), so it can't be trusted")
        }
    }

    /// The target of the link `name` in `folder`.
    private static func linkTarget(in folder: OpenFolder, _ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(FileStorageFolder.maximumPathLength) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters -> Int in
                guard let base = characters.baseAddress else { return -1 }
                return readlinkat(folder.descriptor, name, base, characters.count)
            }
        }
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The current folder's path.
    private static func currentFolder() -> String? {
        let path = FileManager.default.currentDirectoryPath
        return path.hasPrefix("/") ? path : nil
    }

    /// A path as a message shows it: control characters escaped.
    static func shown(_ path: String) -> String {
        (path.isEmpty ? "/" : path).escapingControlCharacters
    }

    /// Why a path can't be trusted.
    struct Refusal: Error {
        let reason: String
        /// The `errno` value when the walk could not go on for want of file descriptors
        /// (`EMFILE`, `ENFILE`): the path itself may be fine.
        let code: Int32?
        init(_ reason: String, code: Int32? = nil) {
            self.reason = reason
            self.code = code == EMFILE || code == ENFILE ? code : nil
        }
    }
}
#endif
