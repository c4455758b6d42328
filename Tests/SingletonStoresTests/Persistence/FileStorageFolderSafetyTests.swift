#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The data folder must be the user's own and private; nothing in it is followed as a link.
@Suite("FileStorage: folder ownership, permissions and links")
struct FileStorageFolderSafetyTests {
    /// Notices a storage reported.
    final class Notices: Sendable {
        let received = Locked<[StorageNotice]>([])
        var all: [StorageNotice] { received.withLock { $0 } }
        var report: @Sendable (StorageNotice) -> Void { { notice in self.received.withLock { $0.append(notice) } } }
    }

    /// Runs `operation` ("load" or "update") on the counter document.
    static func perform(_ operation: String, on storage: FileStorage) throws {
        if operation == "load" {
            _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
        } else {
            try update(storage)
        }
    }

    static func update(_ storage: FileStorage) throws(StorageError) {
        try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
    }

    @Test func folderOthersCanAccessIsMadePrivateAndReportedOnce() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try #require(chmod(folder.path(percentEncoded: false), 0o777) == 0)
            let notices = Notices()
            let storage = FileStorage(folder: folder, reportNotice: notices.report)
            _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            try Self.update(storage)
            try Self.update(storage)
            #expect(try permissions(of: folder) == 0o700)
            #expect(notices.all == [.folderMadePrivate(folder: folder, previousMode: 0o777)])
            #expect(notices.all.first?.description.contains("permissions 0777") == true)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving the folder to another user needs root"))
    func folderOfAnotherUserIsRefused() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 3), to: StoreDocument(key: "counter", default: PersistedCounter(count: 3)))
            try #require(chown(folder.path(percentEncoded: false), 65534, 65534) == 0)
            let before = try snapshot(of: folder)
            for operation in ["load", "update"] {
                #expect {
                    try Self.perform(operation, on: storage)
                } throws: { error in
                    guard case StorageError.folderUnavailable(_, let reason) = error else { return false }
                    return reason.contains("another user (uid 65534)")
                }
            }
            #expect(try snapshot(of: folder) == before)
        }
    }

    @Test func lockFileThatIsALinkIsRefusedNotFollowed() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let outside = parent.appending(path: "outside", directoryHint: .notDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 3), to: StoreDocument(key: "counter", default: PersistedCounter(count: 3)))
            let lock = folder.appending(path: "counter.lock", directoryHint: .notDirectory)
            try FileManager.default.removeItem(at: lock)
            try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: outside)
            #expect {
                try Self.update(storage)
            } throws: { error in
                guard case StorageError.lockFailed(let file, let reason) = error else { return false }
                return file == lock && reason.contains("symbolic link")
            }
            #expect(!FileManager.default.fileExists(atPath: outside.path(percentEncoded: false)), "the link was followed")
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 3)
        }
    }

    @Test func documentThatIsALinkIsRefusedNotFollowedNorMoved() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            let target = parent.appending(path: "elsewhere.json", directoryHint: .notDirectory)
            let targetBytes = Data(#"{"formatVersion": 1, "value": {"count": 99, "label": "planted"}}"#.utf8)
            try targetBytes.write(to: target)
            let file = try storage.fileURL(forKey: "counter")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
            let before = try snapshot(of: folder)
            for operation in ["load", "update"] {
                #expect {
                    try Self.perform(operation, on: storage)
                } throws: { error in
                    guard case StorageError.readFailed(let reported, let reason) = error else { return false }
                    return reported == file && reason.contains("symbolic link")
                }
            }
            #expect(try snapshot(of: folder) == before)
            #expect(try Data(contentsOf: target) == targetBytes)
        }
    }

    @Test func folderThatIsALinkTheUserMadeIsFollowed() throws {
        try withTemporaryFolder { parent in
            let real = parent.appending(path: "real", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(
                at: real, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let link = parent.appending(path: "link", directoryHint: .isDirectory)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let storage = FileStorage(folder: link, reportNotice: { _ in })
            try Self.update(storage)
            #expect(FileManager.default.fileExists(atPath: real.appending(path: "counter.json").path(percentEncoded: false)))
        }
    }

    @Test(arguments: ["data", "data/more"])
    func fileInTheWayOfTheFolderIsNamed(below: String) throws {
        try withTemporaryFolder { parent in
            let blocker = parent.appending(path: "data", directoryHint: .notDirectory)
            try Data("x".utf8).write(to: blocker)
            let folder = parent.appending(path: below, directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            for operation in ["load", "save", "update"] {
                #expect {
                    switch operation {
                    case "load":
                        _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                    case "save":
                        try storage.save(PersistedCounter(), to: StoreDocument(key: "counter", default: PersistedCounter()))
                    default: try Self.update(storage)
                    }
                } throws: { error in
                    guard case StorageError.folderUnavailable(_, let reason) = error else { return false }
                    return reason == "a file is in the way at \(blocker.path(percentEncoded: false))"
                }
            }
            #expect(try Data(contentsOf: blocker) == Data("x".utf8))
        }
    }

    /// A write walks the folder's path once; the writes that follow find the same private
    /// folder with one look and don't walk it again.
    @Test func aCheckedFolderIsNotWalkedAgainByTheWritesThatFollow() throws {
        // Reused for an hour here: how long the writes take (a sanitizer on a busy machine
        // makes six of them last more than the default second) is not what this test is about.
        try FolderCheckReuse.$interval.withValue(.seconds(3600)) {
            try withTemporaryFolder { folder in
                let storage = FileStorage(folder: folder, reportNotice: { _ in })
                for _ in 0..<5 { try Self.update(storage) }
                _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                #expect(CheckedFolders.walks(of: folder.path(percentEncoded: false).trimmingSlashes) == 1)
            }
        }
    }

    /// A folder whose permissions changed after a write is checked again at the next write,
    /// and made private again.
    @Test func aFolderOpenedUpAfterAWriteIsMadePrivateAgainByTheNextWrite() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let notices = Notices()
            let storage = FileStorage(folder: folder, reportNotice: notices.report)
            try Self.update(storage)
            try #require(chmod(folder.path(percentEncoded: false), 0o777) == 0)
            try Self.update(storage)
            #expect(try permissions(of: folder) == 0o700)
            #expect(notices.all == [.folderMadePrivate(folder: folder, previousMode: 0o777)])
        }
    }

    /// A folder on the way that others can change, made so after a write, refuses the writes
    /// that follow once the walk is due again (at most a second later; here at once).
    @Test func aParentOpenedUpAfterAWriteRefusesTheWritesOnceTheWalkIsDue() throws {
        try withTemporaryFolder { parent in
            let middle = parent.appending(path: "shared", directoryHint: .isDirectory)
            let folder = middle.appending(path: "data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try Self.update(storage)
            try #require(chmod(middle.path(percentEncoded: false), 0o777) == 0)
            FolderCheckReuse.$interval.withValue(.zero) {
                #expect {
                    try Self.update(storage)
                } throws: { error in
                    guard case StorageError.folderUnavailable(_, let reason) = error else { return false }
                    return reason.contains("can be changed by other users")
                }
            }
        }
    }

    @Test func createdFoldersAreOnlyTheUsers() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "a/b/data", directoryHint: .isDirectory)
            let notices = Notices()
            try Self.update(FileStorage(folder: folder, reportNotice: notices.report))
            for path in ["a", "a/b", "a/b/data"] {
                #expect(try permissions(of: parent.appending(path: path)) == 0o700, "\(path)")
            }
            #expect(notices.all.isEmpty)
        }
    }
}

extension String {
    /// The path without a trailing slash, as the storage names its folder.
    fileprivate var trimmingSlashes: String {
        var path = self
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
#endif
