#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// Real conditions the test process can't put itself in: a narrow umask, an unprivileged user
/// (root bypasses permissions), few file descriptors. `storage-stress as-user` does the storage
/// work in a child process; these tests set up the files and check what is on disk afterwards.
@Suite("FileStorage as another user, umask or descriptor limit", .ownThread)
struct FileStorageAsUserTests {
    /// The unprivileged user the child becomes (`nobody` on most systems).
    static let nobody: uid_t = 65534

    /// What the child printed, one line per step, and how it exited.
    typealias Run = ChildProcessResult

    /// Runs `storage-stress as-user <uid> <umask> <folder> <steps…>` and waits for it; `binary`
    /// is the built one by default.
    static func run(uid: uid_t?, umask: String? = nil, folder: URL, steps: [String], binary: URL? = nil) throws -> Run {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let binary = try #require(binary ?? found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["as-user", uid.map { String($0) } ?? "-", umask ?? "-", folder.path(percentEncoded: false)] + steps
        return try StartedChild.start(process).finish()
    }

    /// Gives `url` to the unprivileged user.
    static func giveToNobody(_ url: URL) throws {
        try #require(chown(url.path(percentEncoded: false), nobody, gid_t(nobody)) == 0)
    }

    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func narrowUmaskStillGivesWorkingFilesAndAPrivateFolder() throws {
        try withTemporaryFolder { parent in
            try Self.giveToNobody(parent)
            let folder = parent.appending(path: "app/data", directoryHint: .isDirectory)
            let run = try Self.run(uid: Self.nobody, umask: "0277", folder: folder, steps: ["update", "update", "load"])
            #expect(run.status == 0)
            #expect(run.lines == ["update: ok count=1", "update: ok count=2", "load: ok count=2 stored=true"])
            #expect(try permissions(of: parent.appending(path: "app")) == 0o700)
            #expect(try permissions(of: folder) == 0o700)
            #expect(try permissions(of: folder.appending(path: "counter.json")) == 0o600)
            #expect(try permissions(of: folder.appending(path: "counter.lock")) == 0o600)
        }
    }

    /// From outside: `swift test` as root in a checkout inside a folder only its owner may
    /// enter failed here, because the child, once unprivileged, could not look at its own
    /// executable's folder and Foundation's `Bundle.main` trapped (the default app name asked it).
    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func aChildWhoseExecutableLiesInAPrivateFolderStillWorks() throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let built = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try withTemporaryFolder { privateParent in
            try #require(chmod(privateParent.path(percentEncoded: false), 0o700) == 0)
            let copy = privateParent.appending(path: "bin/storage-stress", directoryHint: .notDirectory)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: built, to: copy)
            try withTemporaryFolder { folder in
                try Self.giveToNobody(folder)
                // Another test's child, forked while the copy was still open for writing, may hold
                // it open until it execs: starting the copy then fails with "Text file busy". The
                // copy is closed here, so a later try goes through.
                var attempt = 0
                var started: Run?
                while started == nil {
                    do {
                        started = try Self.run(uid: Self.nobody, folder: folder, steps: ["update", "load"], binary: copy)
                    } catch  where "\(error)".localizedCaseInsensitiveContains("busy") && attempt < 50 {
                        attempt += 1
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                }
                let run = try #require(started)
                #expect(run.status == 0, "\(run.standardError.prefix(400))")
                #expect(run.lines == ["update: ok count=1", "load: ok count=1 stored=true"])
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func folderEveryoneCanWriteIsMadePrivateAndReported() throws {
        try withTemporaryFolder { folder in
            try Self.giveToNobody(folder)
            try #require(chmod(folder.path(percentEncoded: false), 0o777) == 0)
            let run = try Self.run(uid: Self.nobody, folder: folder, steps: ["update", "update"])
            #expect(run.lines == ["update: ok count=1", "update: ok count=2"])
            #expect(try permissions(of: folder) == 0o700)
            let notices = run.standardError.split(separator: "\n")
            #expect(notices.count == 1, "reported once: \(run.standardError)")
            #expect(notices.first?.contains("permissions 0777); it was made private (0700)") == true)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func folderOfAnotherUserIsRefused() throws {
        try withTemporaryFolder { folder in
            try FileStorage(folder: folder, reportNotice: { _ in }).save(
                PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            try #require(chmod(folder.path(percentEncoded: false), 0o777) == 0)  // root's, writable by anyone
            let before = try snapshot(of: folder)
            let run = try Self.run(uid: Self.nobody, folder: folder, steps: ["load", "update"])
            #expect(run.lines.count == 2)
            for line in run.lines {
                #expect(line.contains("error folderUnavailable: ") && line.contains("belongs to another user (uid 0)"), "\(line)")
            }
            #expect(try snapshot(of: folder) == before)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func documentTheUserCanNotReadIsLeftInPlace() throws {
        try withTemporaryFolder { folder in
            try FileStorage(folder: folder, reportNotice: { _ in }).save(
                PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            for name in ["", "counter.json", "counter.lock"] {
                try Self.giveToNobody(folder.appending(path: name))
            }
            try #require(chmod(folder.appending(path: "counter.json").path(percentEncoded: false), 0o000) == 0)
            let before = try snapshot(of: folder)
            let run = try Self.run(uid: Self.nobody, folder: folder, steps: ["load", "update", "load"])
            #expect(run.lines.count == 3)
            for line in run.lines {
                #expect(line.contains("error readFailed: ") && line.contains("Permission denied"), "\(line)")
                #expect(line.contains("It was left in place, unchanged."), "\(line)")
            }
            #expect(try snapshot(of: folder) == before, "the document was moved or changed")
        }
    }

    /// From outside: not only root follows another user's link — an unprivileged user's data
    /// folder reached through a link a third user made in a shared folder is refused too, and
    /// the folder it points to is left as it is; the same folder by its own path is used.
    @Test(.enabled(if: geteuid() == 0, "becoming an unprivileged user needs root; as one, there is no one to become"))
    func aDataFolderReachedThroughAThirdUsersLinkIsRefusedForAnUnprivilegedUserToo() throws {
        try withTemporaryFolder { parent in
            try #require(chmod(parent.path(percentEncoded: false), 0o755) == 0)
            let target = parent.appending(path: "nobodys", directoryHint: .isDirectory)
            try FileStorage(folder: target, reportNotice: { _ in }).save(
                PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            for name in ["", FileStorageFolder.markerName, "counter.json", "counter.lock"] {
                try Self.giveToNobody(target.appending(path: name))
            }
            let shared = parent.appending(path: "shared", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
            try #require(chmod(shared.path(percentEncoded: false), 0o1777) == 0)
            let link = shared.appending(path: "data").path(percentEncoded: false)
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: String(target.path(percentEncoded: false).dropLast()))
            let daemon: uid_t = 1  // a third user, neither root nor the one the child becomes
            try #require(lchown(link, daemon, gid_t(daemon)) == 0)
            let before = try snapshot(of: target)
            let run = try Self.run(uid: Self.nobody, folder: URL(filePath: link), steps: ["load", "update"])
            #expect(run.lines.count == 2, "\(run.standardError)")
            for line in run.lines {
                #expect(
                    line.contains("error folderUnavailable: ") && line.contains("symbolic link") && line.contains("(uid 1)"),
                    "\(line)")
            }
            #expect(try snapshot(of: target) == before)
            let direct = try Self.run(uid: Self.nobody, folder: target, steps: ["update"])
            #expect(direct.lines == ["update: ok count=6"], "\(direct.standardError)")
        }
    }

    @Test func noFreeFileDescriptorLeavesTheDocumentInPlace() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            let before = try snapshot(of: folder)
            let run = try Self.run(
                uid: nil, folder: folder,
                steps: [
                    "limit-descriptors", "exhaust-descriptors", "load", "update",
                    "free-one-descriptor", "update", "free-descriptors", "load",
                ])
            #expect(run.status == 0)
            try #require(run.lines.count == 4, "\(run.lines)")
            #expect(run.lines[0].hasPrefix("load: error readFailed: ") && run.lines[0].contains("Too many open files"))
            // The folder's path is checked through descriptors of its folders: with none free,
            // the check can't be made, and the write says so before it would open the lock file.
            #expect(run.lines[1].hasPrefix("update: error readFailed: ") && run.lines[1].contains("Too many open files"))
            #expect(run.lines[2].hasPrefix("update: error readFailed: ") && run.lines[2].contains("left in place, unchanged"))
            #expect(run.lines[3] == "load: ok count=5 stored=true")
            #expect(try snapshot(of: folder) == before)
        }
    }
}
#endif
