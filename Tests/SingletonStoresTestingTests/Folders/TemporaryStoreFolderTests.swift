import Foundation
import Synchronization
import SingletonStoresTesting
import Testing

@Suite struct TemporaryStoreFolderTests {
    private static func permissions(of folder: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func theFolderIsNewEmptyPrivateAndRemovedAfterwards() throws {
        let used = try withTemporaryStoreFolder { folder in
            #expect(try Self.permissions(of: folder) == 0o700, "only the current user can open it")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            try FileStorage(folder: folder).save(20, to: StoreDocument(key: "font-size", default: 17))
            #expect(try FileStorage(folder: folder).load(StoreDocument(key: "font-size", default: 17)).value == 20)
            return folder
        }
        #expect(!FileManager.default.fileExists(atPath: used.path), "removed with its documents")
    }

    @Test func eachCallGetsAFolderOfItsOwnAlsoWhenAsync() async throws {
        let first = try withTemporaryStoreFolder { $0 }
        let second = try await withTemporaryStoreFolder { folder async throws -> URL in
            await Task.yield()
            let permissions = try Self.permissions(of: folder)
            #expect(permissions == 0o700)
            return folder
        }
        #expect(first != second)
        #expect(!FileManager.default.fileExists(atPath: second.path))
    }

    @Test func aFileStorageThereNeedsNoTightening() throws {
        let notices = Mutex<[StorageNotice]>([])
        try withTemporaryStoreFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { notice in notices.withLock { $0.append(notice) } })
            try storage.save("Aki", to: StoreDocument(key: "nickname", default: "Aki"))
        }
        #expect(notices.withLock { $0 }.isEmpty, "the folder was private from the start")
    }
}
