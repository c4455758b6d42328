import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

/// Another store's value on the key `counter`.
private struct Playlist: Codable, Sendable, Equatable {
    var songs: [String] = []
}

/// The counter under another name, as after a rename of its type.
private struct RenamedCounter: Codable, Sendable, Equatable {
    var count = 0
    var label = "counter"
}

/// A document records the store that wrote it, and a store of another identity on its key —
/// now, later, or in another process — never reads it as damaged, moves it or overwrites it.
@Suite("Another store's document")
struct AnotherStoresDocumentTests {
    static let counter = StoreDocument(key: "counter", default: PersistedCounter())
    fileprivate static let playlist = StoreDocument(key: "counter", default: Playlist())

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    }

    @Test func aDocumentRecordsTheStoreThatWroteIt() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 6), to: Self.counter)
            let text = try DocumentFileText.text(at: folder.appending(path: "counter.json"))
            #expect(text.contains(#""store" : "PersistedCounter""#), "\(text)")
            // The format's first bytes, which tell the library's documents, are unchanged.
            #expect(text.hasPrefix("{\n  \"formatVersion\" : 2,\n  \"store\""))
            #expect(Self.counter.identity == "PersistedCounter")
            #expect(StoreDocument(key: "x", default: [PersistedCounter]()).identity == "Array<PersistedCounter>")
        }
    }

    @Test func anotherStoresDocumentIsLeftInPlaceAndRefused() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = folder.appending(path: "counter.json")
            try storage.save(PersistedCounter(count: 6), to: Self.counter)
            let written = try Data(contentsOf: file)
            let namesBefore = try Self.names(in: folder)

            let clash = StorageError.documentOfAnotherStore(file: file, owner: "PersistedCounter", store: "Playlist")
            let loaded = try storage.load(Self.playlist)
            #expect(loaded.value == Playlist())
            #expect(loaded.recovery == clash)
            #expect(throws: clash) { try storage.update(Self.playlist) { $0.songs.append("x") } }
            #expect(throws: clash) { try storage.updateIfAvailable(Self.playlist) { $0.songs.append("x") } }
            #expect(throws: clash) { try storage.save(Playlist(songs: ["x"]), to: Self.playlist) }

            #expect(try Data(contentsOf: file) == written)
            #expect(try Self.names(in: folder) == namesBefore)
            // The first store, made again, finds its value.
            #expect(try storage.load(Self.counter) == StorageLoad(value: PersistedCounter(count: 6), isStored: true))
            #expect(clash.description.contains("PersistedCounter") && clash.description.contains("another key"))
        }
    }

    @Test func aStoreMadeLaterOnAnotherStoresKeyIsRefusedAndTheFirstKeepsItsData() throws {
        try withTemporaryFolder { folder in
            do {
                let first = ValueStore(
                    Self.counter, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
                try first.update { $0.count = 6 }
            }
            let issues = Recorder<StoreIssue>()
            let later = ValueStore(
                Self.playlist, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off,
                reportIssue: { issues.append($0) })
            guard case .documentOfAnotherStore(_, "PersistedCounter", "Playlist")? = later.loadProblem else {
                Issue.record("expected a clash, got \(String(describing: later.loadProblem))")
                return
            }
            #expect(issues.values.count == 1)
            #expect(throws: StorageError.self) { try later.update { $0.songs.append("x") } }
            let again = ValueStore(
                Self.counter, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
            #expect(again.value.count == 6)
            #expect(again.loadProblem == nil)
        }
    }

    @Test func twoLiveStoresOfDifferentIdentitiesClashWithTheSameError() throws {
        try withTemporaryFolder { folder in
            let first = ValueStore(
                Self.counter, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
            let issues = Recorder<StoreIssue>()
            let second = ValueStore(
                Self.playlist, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off,
                reportIssue: { issues.append($0) })
            let file = folder.appending(path: "counter.json")
            let clash = StorageError.documentOfAnotherStore(file: file, owner: "PersistedCounter", store: "Playlist")
            #expect(second.loadProblem == clash)
            #expect(issues.values == [.documentKeyInUse(key: "counter", usedBy: "PersistedCounter", requestedBy: "Playlist")])
            #expect(throws: clash) { try second.update { $0.songs.append("x") } }
            try first.update { $0.count += 1 }
            #expect(first.value.count == 1)
        }
    }

    /// A storage of one's own around a `FileStorage` that says where its documents are keeps the
    /// claim: the second store is refused before it reads, as on the `FileStorage` itself.
    @Test(arguments: [false, true])
    func aStorageAroundAFileStorageKeepsTheClaimOnItsDocuments(wrapsTheFirst: Bool) throws {
        try withTemporaryFolder { folder in
            let files = FileStorage(folder: folder)
            let wrapped = ForwardingStorage(files: files)
            let first = ValueStore(
                Self.counter, storage: wrapsTheFirst ? wrapped : files, center: NotificationCenter(), watching: .off)
            let second = ValueStore(
                Self.playlist, storage: wrapsTheFirst ? files : wrapped, center: NotificationCenter(), watching: .off,
                reportIssue: { _ in })
            let file = folder.appending(path: "counter.json")
            let clash = StorageError.documentOfAnotherStore(file: file, owner: "PersistedCounter", store: "Playlist")
            #expect(try wrapped.documentLocation(forKey: "counter") == files.fileURL(forKey: "counter"))
            #expect(InMemoryStorage().documentLocation(forKey: "counter") == nil)
            #expect(second.loadProblem == clash)
            #expect(throws: clash) { try second.update { $0.songs.append("x") } }
            try first.update { $0.count += 1 }
            #expect(first.value.count == 1)
        }
    }

    @Test func aGivenIdentityKeepsARenamedTypesDocuments() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 6), to: Self.counter)
            let renamed = StoreDocument(key: "counter", default: RenamedCounter(), identity: "PersistedCounter")
            #expect(try storage.load(renamed).value == RenamedCounter(count: 6, label: "counter"))
            try storage.update(renamed) { $0.count += 1 }
            #expect(try storage.load(Self.counter).value.count == 7)
        }
    }

    @Test func aDocumentWithoutAStoreIsReadByItsKeysStoreAndRecordsItAtTheNextWrite() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "counter.json")
            try Data(#"{"formatVersion": 2, "value": {"count": 6, "label": "old"}}"#.utf8).write(to: file)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            #expect(
                try storage.load(Self.counter) == StorageLoad(value: PersistedCounter(count: 6, label: "old"), isStored: true))
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(try String(contentsOf: file, encoding: .utf8).contains(#""store" : "PersistedCounter""#))
            #expect(try storage.load(Self.playlist).recovery?.refusesWrites == true)
        }
    }

    @Test func aDocumentOfTheSameStoreThatNoLongerDecodesIsStillKeptAsideAndItsStoreIsTold() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "counter.json")
            try Data(#"{"formatVersion": 2, "store": "PersistedCounter", "value": {"tally": 6}}"#.utf8).write(to: file)
            let issues = Recorder<StoreIssue>()
            let store = ValueStore(
                Self.counter, storage: FileStorage(folder: folder, reportNotice: { _ in }), center: NotificationCenter(),
                watching: .off, reportIssue: { issues.append($0) })
            guard case .corrupted(let reported, let kept, _)? = store.loadProblem else {
                Issue.record("expected the document kept aside, got \(String(describing: store.loadProblem))")
                return
            }
            #expect(reported.lastPathComponent == file.lastPathComponent)
            #expect(kept.lastPathComponent.hasPrefix("counter~corrupt-"))
            #expect(issues.values == [.storageRecovered(try #require(store.loadProblem))])
            try store.update { $0.count = 1 }
            #expect(store.value.count == 1)
        }
    }

    /// What a build of release 0.1 decodes a document as: the envelope it knew, which had no
    /// `store` (nor `valueVersion`).
    private struct Release01Envelope<Value: Codable>: Codable {
        var formatVersion: Int
        var value: Value
    }

    @Test func earlierBuildsStillReadADocumentThatRecordsItsStore() throws {
        let data = try DocumentCoding.encode(PersistedCounter(count: 6), key: "counter", store: "PersistedCounter")
        let read = try DocumentFormat.decoder(version: 2).decode(Release01Envelope<PersistedCounter>.self, from: data)
        #expect(read.formatVersion == 2 && read.value == PersistedCounter(count: 6))
    }

    @Test func theInMemoryStorageKeepsAnotherStoresValueAndRefusesIt() throws {
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 6)])
        let loaded = try storage.load(Self.playlist)
        let clash = StorageError.documentOfAnotherStore(
            file: InMemoryStorage.location(forKey: "counter"), owner: "PersistedCounter", store: "Playlist")
        #expect(loaded.recovery == clash)
        #expect(throws: clash) { try storage.update(Self.playlist) { $0.songs.append("x") } }
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == PersistedCounter(count: 6))
    }
}

/// A storage of one's own that keeps its documents in a `FileStorage` (as one that logs or
/// encrypts would), and says where they are.
private struct ForwardingStorage: StoreStorage {
    let files: FileStorage

    func read(_ key: String) throws(StorageError) -> StoredBytes? { try files.read(key) }

    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        try files.transaction(key, waits: waits, body)
    }

    func watch(
        forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        try files.watch(forKey: key, watching, onChange: onChange)
    }
}

// The example of `StoreStorage.documentLocation(forKey:)`'s documentation, as it is written there.
// swift-format-ignore
extension ForwardingStorage {
// Doc "SingletonStores/Persistence/StoreStorage.swift" snippet 2: begin
func documentLocation(forKey key: String) -> URL? {
    files.documentLocation(forKey: key)
}
// Doc "SingletonStores/Persistence/StoreStorage.swift" snippet 2: end
}
