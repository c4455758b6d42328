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
/// Files that are not the library's are never read, renamed, chmodded or removed as its own:
/// a path another user controls, a document or lock file of another user, a file not in the
/// library's format, a lock file hard-linked to another file, a folder too deep for its files.
/// (From outside: root's `reset` followed `nobody`'s link and deleted a root-only folder's
/// files; a read renamed the user's own `profile.json`; a lock file fchmodded a system file.)
@Suite("FileStorage: files that are not the library's")
struct FileStorageForeignFilesTests {
    static let nobody: uid_t = 65534

    private static func load(_ storage: FileStorage) throws {
        _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
    }

    private static func update(_ storage: FileStorage) throws {
        try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
    }

    /// Both a load and an update of `storage` throw `folderUnavailable` whose reason holds
    /// every one of `texts`.
    private static func expectFolderRefused(
        _ storage: FileStorage, mentioning texts: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for operation in [load, update] {
            do {
                try operation(storage)
                Issue.record("the folder was used", sourceLocation: sourceLocation)
            } catch {
                guard case StorageError.folderUnavailable(_, let reason) = error else {
                    Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                    continue
                }
                for text in texts { #expect(reason.contains(text), "\(reason)", sourceLocation: sourceLocation) }
            }
        }
    }

    /// The path of `url`, without a trailing slash.
    private static func path(_ url: URL) -> String {
        var path = url.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func mkdir(_ url: URL, mode: mode_t) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try #require(chmod(path(url), mode) == 0)
    }

    // MARK: - 6. The path to the data folder

    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aDataFolderReachedThroughAnotherUsersLinkIsRefusedAndItsTargetLeftAlone() throws {
        try withTemporaryFolder { parent in
            try #require(chmod(Self.path(parent), 0o755) == 0)
            let target = parent.appending(path: "root-only", directoryHint: .isDirectory)
            try FileStorage(folder: target, reportNotice: { _ in }).save(
                PersistedCounter(count: 7), to: StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
            let shared = parent.appending(path: "shared", directoryHint: .isDirectory)
            try Self.mkdir(shared, mode: 0o1777)
            let link = shared.appending(path: "data", directoryHint: .isDirectory)
            try FileManager.default.createSymbolicLink(atPath: Self.path(link), withDestinationPath: Self.path(target))
            try #require(lchown(Self.path(link), Self.nobody, gid_t(Self.nobody)) == 0)
            let before = try snapshot(of: target)
            Self.expectFolderRefused(
                FileStorage(folder: link, reportNotice: { _ in }),
                mentioning: ["symbolic link \(Self.path(link))", "another user (uid 65534)"])
            #expect(try snapshot(of: target) == before)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aFolderOfAnotherUserOnThePathIsRefused() throws {
        try withTemporaryFolder { parent in
            let theirs = parent.appending(path: "theirs", directoryHint: .isDirectory)
            try Self.mkdir(theirs, mode: 0o755)
            let folder = theirs.appending(path: "data", directoryHint: .isDirectory)
            try FileStorage(folder: folder, reportNotice: { _ in }).save(
                PersistedCounter(count: 7), to: StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
            try #require(chown(Self.path(theirs), Self.nobody, gid_t(Self.nobody)) == 0)
            let before = try snapshot(of: folder)
            Self.expectFolderRefused(
                FileStorage(folder: folder, reportNotice: { _ in }),
                mentioning: ["\(Self.path(theirs)) in its path belongs to another user (uid 65534)"])
            // A link of the user's own to it is followed, and the target's path checked too.
            let link = parent.appending(path: "mine", directoryHint: .isDirectory)
            try FileManager.default.createSymbolicLink(atPath: Self.path(link), withDestinationPath: Self.path(folder))
            Self.expectFolderRefused(FileStorage(folder: link, reportNotice: { _ in }), mentioning: ["uid 65534"])
            #expect(try snapshot(of: folder) == before)
        }
    }

    @Test func aFolderOthersCanChangeOnThePathIsRefusedUnlessSticky() throws {
        try withTemporaryFolder { parent in
            let open = parent.appending(path: "open", directoryHint: .isDirectory)
            try Self.mkdir(open, mode: 0o755)
            let folder = open.appending(path: "data", directoryHint: .isDirectory)
            try FileStorage(folder: folder, reportNotice: { _ in }).save(
                PersistedCounter(count: 7), to: StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
            try #require(chmod(Self.path(open), 0o777) == 0)
            let before = try snapshot(of: folder)
            Self.expectFolderRefused(
                FileStorage(folder: folder, reportNotice: { _ in }),
                mentioning: ["\(Self.path(open)) in its path can be changed by other users (permissions 0777"])
            #expect(try snapshot(of: folder) == before)
            // With the sticky bit (a shared folder like /tmp), others can't replace the user's folder.
            try #require(chmod(Self.path(open), 0o1777) == 0)
            try Self.update(FileStorage(folder: folder, reportNotice: { _ in }))
            #expect(
                try FileStorage(folder: folder).load(StoreDocument<PersistedCounter>(key: "counter", default: .init())).value
                    .count == 8)
        }
    }

    @Test func aLinkOfTheUsersOwnIsFollowed() throws {
        try withTemporaryFolder { parent in
            let target = parent.appending(path: "real/data", directoryHint: .isDirectory)
            let link = parent.appending(path: "link", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: Self.path(link), withDestinationPath: "real/data")
            let storage = FileStorage(folder: link, reportNotice: { _ in })
            try Self.update(storage)
            try Self.update(storage)
            #expect(try storage.load(StoreDocument<PersistedCounter>(key: "counter", default: .init())).value.count == 2)
            #expect(FileManager.default.fileExists(atPath: Self.path(target.appending(path: "counter.json"))))
        }
    }

    // MARK: - 7. Documents of another user

    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aDocumentPlantedByAnotherUserInAStickyFolderIsNeverReadAsOurs() throws {
        try withTemporaryFolder { parent in
            try #require(chmod(Self.path(parent), 0o755) == 0)
            let shared = parent.appending(path: "shared", directoryHint: .isDirectory)
            try Self.mkdir(shared, mode: 0o1777)
            let planted = shared.appending(path: "counter.json")
            try Data(#"{"formatVersion": 2, "value": {"count": 1000}}"#.utf8).write(to: planted)
            try #require(chown(Self.path(planted), Self.nobody, gid_t(Self.nobody)) == 0)
            let storage = FileStorage(folder: shared, reportNotice: { _ in })
            let before = try snapshot(of: shared)
            for operation in [Self.load, Self.update] {
                #expect {
                    try operation(storage)
                } throws: { error in
                    guard case StorageError.readFailed(_, let reason) = error else { return false }
                    return reason.contains("belongs to another user (uid 65534)")
                }
            }
            #expect(try Data(contentsOf: planted) == before["counter.json"] ?? nil, "left as it was")
            #expect(try snapshot(of: shared).keys.allSatisfy { !$0.contains("~") }, "nothing kept aside")
        }
    }

    // MARK: - 8. Files not in the library's format

    @Test func theUsersOwnFileInADocumentsPlaceIsNeverRenamedOrReplaced() throws {
        try withTemporaryFolder { home in
            let profile = home.appending(path: "counter.json")
            try Data("my own notes, not JSON".utf8).write(to: profile)
            try Data("x".utf8).write(to: home.appending(path: ".bashrc"))
            let storage = FileStorage(folder: home, reportNotice: { _ in })
            for (index, operation) in [Self.load, Self.update].enumerated() {
                #expect {
                    try operation(storage)
                } throws: { error in
                    guard case StorageError.keepAsideFailed(_, let reason) = error else { return false }
                    return reason.contains("not in this app's data format")
                }
                if index == 0 {
                    let names = try FileManager.default.contentsOfDirectory(atPath: Self.path(home)).sorted()
                    #expect(names == [".bashrc", "counter.json"], "a read makes nothing, not even a lock file")
                }
            }
            #expect(try String(contentsOf: profile, encoding: .utf8) == "my own notes, not JSON")
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.path(home))
            #expect(!names.contains { $0.contains("~") }, "nothing kept aside: \(names)")
        }
    }

    @Test func aBadDocumentInAFolderTheLibraryMadeIsStillKeptAside() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "other", default: PersistedCounter(count: 1)))
            #expect(FileStorageFolder.isOwn(folder))
            try Data("garbage".utf8).write(to: folder.appending(path: "counter.json"))
            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(loaded.recovery?.keptFile != nil)
        }
    }

    @Test func aDamagedDocumentInTheLibrarysFormatIsKeptAsideAnywhere() throws {
        try withTemporaryFolder { home in
            try Data("x".utf8).write(to: home.appending(path: ".bashrc"))
            try Data(#"{"formatVersion" : 2, "value" : {"cou"#.utf8).write(to: home.appending(path: "counter.json"))
            let loaded = try FileStorage(folder: home, reportNotice: { _ in })
                .load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(loaded.recovery?.keptFile != nil)
        }
    }

    @Test(arguments: [
        (#"{"formatVersion" : 2, "value" : 1}"#, true), ("  {\n\"formatVersion\":1", true), (#"{"count": 3}"#, false),
        ("", false), ("formatVersion", false), (#"{"formatVersion": "2"}"#, false),
    ])
    func theLibrarysFormatIsRecognisedByItsFirstBytes(text: String, isLibrarys: Bool) {
        #expect(DocumentFile.startsLikeADocument(Array(text.utf8)) == isLibrarys)
    }

    // MARK: - 10. Lock files

    @Test func aLockFileHardLinkedToAnotherFileIsRefusedAndThatFileLeftAlone() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            let system = parent.appending(path: "system-file")
            try Data("system".utf8).write(to: system)
            try #require(chmod(Self.path(system), 0o644) == 0)
            let lock = folder.appending(path: "counter.lock")
            try FileManager.default.removeItem(at: lock)
            try #require(link(Self.path(system), Self.path(lock)) == 0)
            #expect {
                try Self.update(storage)
            } throws: { error in
                guard case StorageError.lockFailed(_, let reason) = error else { return false }
                return reason.contains("2 names (hard links)")
            }
            #expect(try permissions(of: system) == 0o644)
            #expect(try storage.load(StoreDocument<PersistedCounter>(key: "counter", default: .init())).value.count == 1)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving files to another user needs root"))
    func aLockFileOfAnotherUserIsRefused() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            let lock = folder.appending(path: "counter.lock")
            try #require(chown(Self.path(lock), Self.nobody, gid_t(Self.nobody)) == 0)
            try #require(chmod(Self.path(lock), 0o644) == 0)
            #expect {
                try Self.update(storage)
            } throws: { error in
                guard case StorageError.lockFailed(_, let reason) = error else { return false }
                return reason.contains("belongs to another user (uid 65534)")
            }
            #expect(try permissions(of: lock) == 0o644)
        }
    }

    // MARK: - 13. A folder too deep for its files

    @Test func aFolderTooDeepForItsFilesIsRefusedBeforeAnythingIsCreated() throws {
        try withTemporaryFolder { parent in
            // Names of 200 bytes, up to a path 4070 bytes long: it fits, its files' names don't.
            let base = Self.path(parent).utf8.count
            var components: [String] = []
            var length = base
            while length + 201 < 4070 {
                components.append(String(repeating: "d", count: 200))
                length += 201
            }
            components.append(String(repeating: "e", count: 4070 - length - 1))
            let folder = parent.appending(path: components.joined(separator: "/"), directoryHint: .isDirectory)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            Self.expectFolderRefused(storage, mentioning: ["leaves no room for the names of the files kept in it"])
            let created = try FileManager.default.contentsOfDirectory(atPath: Self.path(parent))
            #expect(created.isEmpty, "\(created)")
        }
    }
}
#endif
