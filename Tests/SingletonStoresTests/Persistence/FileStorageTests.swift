import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

@Suite("FileStorage basics")
struct FileStorageTests {
    @Test func savedValueLoadsBackEqual() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let value = PersistedCounter(count: 42, label: "ünïcödé / \"quoted\"")
            #expect(try storage.save(value, to: StoreDocument(key: "counter", default: value)) == nil)

            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(loaded == StorageLoad(value: value, isStored: true))

            let fresh = FileStorage(folder: folder)  // another instance reads the same document
            #expect(try fresh.load(StoreDocument(key: "counter", default: PersistedCounter())).value == value)
        }
    }

    @Test func missingDocumentYieldsTheDefaultAndCreatesNothing() throws {
        try withTemporaryFolder { folder in
            let dataFolder = folder.appending(path: "data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: dataFolder)
            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
            #expect(loaded == StorageLoad(value: PersistedCounter(count: 7), isStored: false, recovery: nil))
            #expect(!FileManager.default.fileExists(atPath: dataFolder.path(percentEncoded: false)))
        }
    }

    @Test func documentIsAVersionedEnvelope() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(PersistedCounter(count: 3), to: StoreDocument(key: "counter", default: PersistedCounter(count: 3)))
            let data = try DocumentFileText.envelope(at: try storage.fileURL(forKey: "counter"))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["formatVersion"] as? Int == FileStorage.formatVersion)
            let value = try #require(json["value"] as? [String: Any])
            #expect(value["count"] as? Int == 3)
        }
    }

    @Test func folderIsCreated0700AndDocument0600() throws {
        try withTemporaryFolder { folder in
            let dataFolder = folder.appending(path: "nested/data", directoryHint: .isDirectory)
            let storage = FileStorage(folder: dataFolder)
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            let file = try storage.fileURL(forKey: "counter")
            #expect(try permissions(of: dataFolder) == 0o700)
            #expect(try permissions(of: file) == 0o600)
            #expect(try permissions(of: storage.lockURL(forKey: "counter")) == 0o600)

            // Loosen it by hand: the next write narrows it to 0600 again.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path(percentEncoded: false))
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
            #expect(try permissions(of: file) == 0o600)
        }
    }

    @Test func updateAppliesTheBodyToTheCurrentDocument() throws {
        try withTemporaryFolder { folder in
            let first = FileStorage(folder: folder)
            let second = FileStorage(folder: folder)
            try first.save(PersistedCounter(count: 10), to: StoreDocument(key: "counter", default: PersistedCounter(count: 10)))

            // `second` never loaded, yet it updates what `first` wrote.
            let update = try second.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                $0.count += 5
                return $0.count * 2
            }
            #expect(update == StorageUpdate(value: PersistedCounter(count: 15), outcome: 30, didWrite: true))
            #expect(
                try first.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 15)
        }
    }

    @Test func unchangedValueIsNotRewritten() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            let file = try storage.fileURL(forKey: "counter")
            let inode =
                try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))[.systemFileNumber] as? NSNumber

            let refused = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { _ in
                "nothing to do"
            }
            #expect(refused.outcome == "nothing to do")
            #expect(!refused.didWrite)
            let after =
                try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))[.systemFileNumber] as? NSNumber
            #expect(inode != nil && inode == after)  // an atomic rewrite would have a new inode

            // On a missing document, an update that changes nothing writes nothing either.
            let untouched = try storage.update(StoreDocument(key: "other", default: PersistedCounter())) { _ in
            }
            #expect(!untouched.didWrite)
            #expect(!FileManager.default.fileExists(atPath: try storage.fileURL(forKey: "other").path(percentEncoded: false)))
        }
    }

    @Test func valueThatCannotBeEncodedIsATypedErrorAndLeavesTheDocument() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save([1.5], to: StoreDocument(key: "numbers", default: [1.5]))
            #expect(throws: StorageError.self) {
                try storage.save([Double.nan], to: StoreDocument(key: "numbers", default: [Double.nan]))
            }
            #expect(try storage.load(StoreDocument<[Double]>(key: "numbers", default: [])).value == [1.5])
        }
    }

    @Test(arguments: [
        "", "a/b", "/abs", "..", "a..b", "../escape", ".hidden", "back\\slash", "spa ce", "ünï", "a~b",
        String(repeating: "k", count: 121),
    ])
    func invalidKeyIsRejected(key: String) throws {
        try withTemporaryFolder { (folder: URL) throws in
            let storage = FileStorage(folder: folder)
            #expect(throws: StorageError.self) { try storage.fileURL(forKey: key) }
            #expect(throws: StorageError.self) {
                try storage.load(StoreDocument(key: key, default: PersistedCounter()))
            }
            #expect(throws: StorageError.self) {
                try storage.save(PersistedCounter(), to: StoreDocument(key: key, default: PersistedCounter()))
            }
            do throws(StorageError) {
                try storage.update(StoreDocument(key: key, default: PersistedCounter())) { $0.count += 1 }
                Issue.record("update accepted the key \(key)")
            } catch {
                guard case .invalidKey(let rejected, _) = error else {
                    Issue.record("expected .invalidKey, got \(error)")
                    return
                }
                #expect(rejected == key)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).isEmpty)
        }
    }

    @Test(arguments: ["profile", "com.example.profile", "boost_deadline-2", "A", String(repeating: "k", count: 120)])
    func validKeyIsAccepted(key: String) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(PersistedCounter(count: 2), to: StoreDocument(key: key, default: PersistedCounter(count: 2)))
            #expect(try storage.load(StoreDocument(key: key, default: PersistedCounter())).value.count == 2)
            #expect(try storage.fileURL(forKey: key).lastPathComponent == "\(key).json")
        }
    }

    /// Documented on FileStorage and StoreStorage: fields this version's type does not know are
    /// read past, and dropped when the document is rewritten.
    @Test func fieldsThisVersionDoesNotKnowAreDroppedOnRewrite() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            try Data(#"{"formatVersion": 1, "note": "x", "value": {"count": 2, "label": "c", "color": "red"}}"#.utf8).write(
                to: file)
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value
                    == PersistedCounter(count: 2, label: "c"))
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
            let rewritten = try DocumentFileText.text(at: file)
            #expect(rewritten.contains(#""count" : 3"#))
            #expect(!rewritten.contains("color") && !rewritten.contains("note"))
        }
    }
}
