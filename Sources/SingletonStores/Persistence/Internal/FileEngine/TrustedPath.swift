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
/// The walk that proves a data folder's path can be trusted, as OpenSSH's `StrictModes` does
/// for `~/.ssh`: no one but the user (or root) can change where it leads.
///
/// Every component, from `/` down, is looked at without following links. A folder on the way
/// must belong to the user or root and must not be writable by others (group or world) unless
/// it has the sticky bit (`/tmp`), where others can add names but not replace the user's. A
/// symbolic link on the way must belong to the user or root; its target is then walked the same
/// way, component by component. Anything else — another user's folder or link, a folder others
/// can change, a file in the way, a loop of links — refuses the folder. The folder itself must
/// be a folder of the user; its own permissions are checked by ``FileStorageFolder``.
enum TrustedPath {
    /// What the walk found.
    enum Walk {
        /// The folder exists: its path with every link resolved, and its `lstat`.
        case exists(physical: String, info: stat)
        /// The folder does not exist: the deepest folder that does (links resolved), and the
        /// names still to create below it, in order.
        case missing(existing: String, names: [String])
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
        var resolved = ""  // "" is "/"
        var info = stat()
        guard lstat("/", &info) == 0 else { throw Refusal("/ can't be looked at: \(DocumentFile.describe(errno))") }
        try checkFolder("/", info, me: me, isLast: pending.isEmpty)
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                resolved = resolved.lastIndex(of: "/").map { String(resolved[..<$0]) } ?? ""
                continue
            }
            let candidate = resolved + "/" + name
            if lstat(candidate, &info) != 0 {
                let code = errno
                guard code == ENOENT else {
                    if code == ENOTDIR { throw Refusal("a file is in the way at \(shown(resolved))") }
                    throw Refusal("\(shown(candidate)) can't be looked at: \(DocumentFile.describe(code))")
                }
                let rest = pending.reversed().filter { $0 != "." }
                guard !rest.contains("..") else {
                    throw Refusal("its path goes up (“..”) from \(shown(candidate)), which does not exist")
                }
                return .missing(existing: resolved.isEmpty ? "/" : resolved, names: [String(name)] + rest.map(String.init))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard info.st_uid == me || info.st_uid == 0 else {
                    throw Refusal(
                        "its path goes through the symbolic link \(shown(candidate)), which belongs to another user "
                            + "(uid \(info.st_uid)), not to you (uid \(me)) or root, so it can't be trusted")
                }
                links += 1
                guard links <= maximumLinks, let target = linkTarget(candidate) else {
                    throw Refusal("the symbolic links in its path (at \(shown(candidate))) can't be followed")
                }
                if target.hasPrefix("/") { resolved = "" }
                pending += target.split(separator: "/").reversed()
            case S_IFDIR:
                try checkFolder(candidate, info, me: me, isLast: pending.isEmpty)
                resolved = candidate
            default:
                throw Refusal("a file is in the way at \(shown(candidate))")
            }
        }
        return .exists(physical: resolved.isEmpty ? "/" : resolved, info: info)
    }

    /// Refuses a folder on the way (not the last) that another user owns or others can change.
    /// The last one is the data folder itself: ``FileStorageFolder`` checks it.
    private static func checkFolder(_ path: String, _ info: stat, me: uid_t, isLast: Bool) throws(Refusal) {
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

    /// The target of the link at `path`.
    private static func linkTarget(_ path: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path), !target.isEmpty else {
            return nil
        }
        return target
    }

    /// The current folder's path.
    private static func currentFolder() -> String? {
        let path = FileManager.default.currentDirectoryPath
        return path.hasPrefix("/") ? path : nil
    }

    /// A path as a message shows it: control characters escaped.
    private static func shown(_ path: String) -> String {
        (path.isEmpty ? "/" : path).escapingControlCharacters
    }

    /// Why a path can't be trusted.
    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
#endif
