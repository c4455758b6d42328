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
/// A folder the library did not make for itself keeps its permissions; a read changes no
/// folder. (From outside: `profile show` turned a 1777 shared folder, a 0755 home folder and,
/// as root with `HOME=/`, `/` itself into 0700.)
@Suite("FileStorage: the permissions of folders it did not make")
struct FileStorageFolderModeTests {
    /// A folder's permissions and the files it holds.
    struct FolderCase: Sendable, CustomTestStringConvertible {
        let mode: mode_t
        let names: [String]
        var testDescription: String { "\(StorageNotice.octal(Int(mode))) holding \(names)" }
    }

    private static func folder(in parent: URL, mode: mode_t, holding names: [String]) throws -> URL {
        let folder = parent.appending(path: "shared", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for name in names { try Data("x".utf8).write(to: folder.appending(path: name)) }
        try #require(chmod(folder.path(percentEncoded: false), mode) == 0)
        return folder
    }

    /// The permission bits with the sticky bit, which `permissions(of:)` leaves out.
    private static func mode(of folder: URL) throws -> Int {
        var info = stat()
        try #require(stat(folder.path(percentEncoded: false), &info) == 0)
        return Int(info.st_mode & 0o7777)
    }

    private static func load(_ storage: FileStorage) throws {
        _ = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
    }

    private static func update(_ storage: FileStorage) throws {
        try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
    }

    @Test(arguments: [
        FolderCase(mode: 0o1777, names: []), FolderCase(mode: 0o0755, names: ["notes.txt"]),
        FolderCase(mode: 0o0777, names: []), FolderCase(mode: 0o0775, names: ["counter.json"]),
        FolderCase(mode: 0o0755, names: []),
    ])
    func aReadNeverChangesTheFolder(folderCase: FolderCase) throws {
        let mode = folderCase.mode
        let names = folderCase.names
        try withTemporaryFolder { parent in
            let folder = try Self.folder(in: parent, mode: mode, holding: names)
            let notices = Recorder<StorageNotice>()
            try? Self.load(FileStorage(folder: folder, reportNotice: { notices.append($0) }))
            #expect(try Self.mode(of: folder) == Int(mode))
            #expect(notices.values.isEmpty)
        }
    }

    @Test func aStickySharedFolderIsUsedAsItIsAndSaidOnce() throws {
        try withTemporaryFolder { parent in
            let folder = try Self.folder(in: parent, mode: 0o1777, holding: [])
            let notices = Recorder<StorageNotice>()
            let storage = FileStorage(folder: folder, reportNotice: { notices.append($0) })
            try Self.update(storage)
            try Self.update(storage)
            #expect(try Self.mode(of: folder) == 0o1777)
            #expect(notices.values.count == 1)
            guard case .folderNotPrivate(_, 0o1777, let reason)? = notices.values.first else {
                Issue.record("expected one not-private notice, got \(notices.values)")
                return
            }
            #expect(reason.contains("sticky bit"))
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 2)
        }
    }

    @Test func aFolderHoldingOtherFilesKeepsItsModeAndIsWrittenTo() throws {
        try withTemporaryFolder { parent in
            let folder = try Self.folder(in: parent, mode: 0o755, holding: ["notes.txt", ".profile"])
            let notices = Recorder<StorageNotice>()
            try Self.update(FileStorage(folder: folder, reportNotice: { notices.append($0) }))
            #expect(try Self.mode(of: folder) == 0o755)
            #expect(notices.values.isEmpty)
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "counter.json").path(percentEncoded: false)))
        }
    }

    @Test func aFolderOthersCanChangeThatHoldsOtherFilesIsRefusedForWritesAndLeftAlone() throws {
        try withTemporaryFolder { parent in
            let folder = try Self.folder(in: parent, mode: 0o777, holding: ["notes.txt"])
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            #expect {
                try Self.update(storage)
            } throws: { error in
                guard case StorageError.folderUnavailable(_, let reason) = error else { return false }
                return reason.contains("notes.txt") && reason.contains("chmod 700")
            }
            #expect(try Self.mode(of: folder) == 0o777)
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "counter.json").path(percentEncoded: false)))
        }
    }

    @Test func aFolderTheLibraryMadeIsMadePrivateQuietlyWhenOnlyReadable() throws {
        try withTemporaryFolder { parent in
            let names = ["counter.json", "counter.lock", "profile~corrupt-2025-05-10T08:53:20Z.json", "boost~1A2B.tmp"]
            let folder = try Self.folder(in: parent, mode: 0o755, holding: names)
            try LibraryFiles.markAsOwn(folder)
            let notices = Recorder<StorageNotice>()
            try? Self.update(FileStorage(folder: folder, reportNotice: { notices.append($0) }))
            #expect(try Self.mode(of: folder) == 0o700)
            #expect(notices.values.isEmpty, "a folder no one else could change is tightened without a word")
        }
    }

    /// From outside: a write made private (0777 → 0700) a folder that held only other apps'
    /// files whose names end in `.json`, `.lock` or `.tmp`.
    @Test(arguments: [0o777, 0o755] as [mode_t])
    func aFolderOfOtherAppsFilesWithNamesLikeTheLibrarysKeepsItsMode(mode: mode_t) throws {
        try withTemporaryFolder { parent in
            let folder = try Self.folder(in: parent, mode: mode, holding: ["settings.json", "notes.lock", "report.tmp"])
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            if mode & 0o022 != 0 {
                #expect {
                    try Self.update(storage)
                } throws: { error in
                    guard case StorageError.folderUnavailable(_, let reason) = error else { return false }
                    return reason.contains("did not make it for itself") && reason.contains("chmod 700")
                }
            } else {
                try Self.update(storage)
            }
            #expect(try Self.mode(of: folder) == Int(mode))
        }
    }
}
#endif
