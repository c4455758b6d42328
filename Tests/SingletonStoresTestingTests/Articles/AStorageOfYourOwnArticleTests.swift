// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "A storage of your own" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles; its tests run as part of the suite:
// both storages migrate a document saved at version 1 and pass the conformance suite. The suite
// below checks what the article says of them beyond that.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.

import SingletonStoresTestSupport

// Article "AStorageOfYourOwn" snippet 1: begin
import Foundation
import SingletonStores

/// Keeps the documents of another storage with every byte XOR-ed with a mask.
///
/// A stand-in for encryption, to show the shape: XOR with a mask kept in the app hides nothing
/// from anyone who looks. A real one seals the bytes with a key from the Keychain, in the same
/// two places.
struct XORStorage<Base: StoreStorage>: StoreStorage {
    let base: Base
    let mask: [UInt8]

    init(_ base: Base, mask: [UInt8]) {
        self.base = base
        self.mask = mask.isEmpty ? [0] : mask
    }

    func read(_ key: String) throws(StorageError) -> StoredBytes? {
        revealed(try base.read(key))
    }

    func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        try base.transaction(key, waits: waits) {
            (stored: StoredBytes?) throws(StorageError) -> DocumentDecision<Result> in
            var decision = try body(revealed(stored))
            decision.change.bytes = decision.change.bytes.map(transformed)
            if let original = decision.change.backup?.original {
                decision.change.backup?.original = transformed(original)  // the copy kept before a migration
            }
            return decision
        }
    }

    func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        try base.watch(forKey: key, watching, onChange: onChange)
    }

    /// The documents are the base's: where they are is where it says.
    func documentLocation(forKey key: String) -> URL? {
        base.documentLocation(forKey: key)
    }

    private func revealed(_ stored: StoredBytes?) -> StoredBytes? {
        guard var stored else { return nil }
        stored.bytes = transformed(stored.bytes)
        return stored
    }

    /// XOR is its own inverse: the same function hides and reveals.
    private func transformed(_ bytes: Data) -> Data {
        Data(bytes.enumerated().map { index, byte in byte ^ mask[index % mask.count] })
    }
}
// Article "AStorageOfYourOwn" snippet 1: end

// Article "AStorageOfYourOwn" snippet 2: begin
// Version 1 of the app kept the diary as one text; version 2 keeps one entry per line.
struct DiaryV1: Codable, Sendable { var text: String }

struct Diary: Codable, Sendable, Equatable {
    var entries: [String] = []

    static let document = StoreDocument(
        key: "diary", default: Diary(),
        migrations: DocumentMigrations(version: 2)
            .step(from: 1) { (old: DiaryV1) in Diary(entries: old.text.split(separator: "\n").map(String.init)) })
}

func openDiary(in folder: URL, center: NotificationCenter = .default) -> ValueStore<Diary> {
    let storage = XORStorage(FileStorage(folder: folder), mask: [0x5A, 0xC3, 0x7E])
    return ValueStore(Diary.document, storage: storage, center: center)
}
// Article "AStorageOfYourOwn" snippet 2: end

// Article "AStorageOfYourOwn" snippet 3: begin
import SingletonStoresTesting
import Testing

@Test func theDiaryIsMigratedAndNeverWrittenInTheClear() throws {
    try withTemporaryStoreFolder { temporary in
        let folder = temporary.appending(path: "diary")
        // What version 1 of the app saved, through the same storage:
        let storage = XORStorage(FileStorage(folder: folder), mask: [0x5A, 0xC3, 0x7E])
        let version1 = StoreDocument(key: "diary", default: DiaryV1(text: ""), identity: "Diary")
        try storage.save(DiaryV1(text: "Rain\nSun"), to: version1)

        let diary = openDiary(in: folder, center: NotificationCenter())
        #expect(diary.value.entries == ["Rain", "Sun"])
        try diary.update { $0.entries.append("Snow") }

        let onDisk = try Data(contentsOf: folder.appending(path: "diary.json"))
        #expect(!String(decoding: onDisk, as: UTF8.self).contains("Snow"))
    }
}

@Test func theXORStorageKeepsItsPromises() throws {
    try withTemporaryStoreFolder { temporary in
        let folder = temporary.appending(path: "documents")  // made by the FileStorage: its own
        StorageConformance.check { XORStorage(FileStorage(folder: folder), mask: [0x5A, 0xC3, 0x7E]) }
    }
}
// Article "AStorageOfYourOwn" snippet 3: end

// Article "AStorageOfYourOwn" snippet 4: begin
/// Keeps every document in one dictionary in memory, with a lock per key for transactions.
final class DictionaryStorage: StoreStorage, @unchecked Sendable {
    private let lock = NSLock()  // guards the two dictionaries below
    private var documents: [String: Data] = [:]  // the documents, and the copies kept beside them
    private var keyLocks: [String: NSLock] = [:]

    func read(_ key: String) throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        return lock.withLock { documents[key] }.map { StoredBytes($0, location: location(of: key)) }
    }

    func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        let key = try Self.validKey(key)
        let keyLock = lock.withLock {
            if let existing = keyLocks[key] { return existing }
            let made = NSLock()
            keyLocks[key] = made
            return made
        }
        if waits {
            guard keyLock.lock(before: Date(timeIntervalSinceNow: 5)) else {
                throw .lockTimedOut(file: location(of: key), holder: nil, waited: .seconds(5))
            }
        } else if !keyLock.try() {
            return nil  // another transaction holds the key: the body does not run
        }
        defer { keyLock.unlock() }
        let decision = try body(try read(key))
        let keptAt = lock.withLock { commit(decision.change, to: key) }
        return DocumentCommit(decision.result, keptAt: keptAt)
    }

    func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        _ = try Self.validKey(key)
        return nil  // no other process or instance writes these documents
    }

    /// Applies `change` to the document of `key`; where a document set aside is kept.
    /// Call it holding `lock`.
    private func commit(_ change: DocumentChange, to key: String) -> URL? {
        if let backup = change.backup {
            documents["\(key)~before-v\(backup.to)"] = backup.original
        }
        var keptAt: URL?
        if let problem = change.settingAside, let bad = documents.removeValue(forKey: key) {
            let name = "\(key)~\(problem.tag)-\(UUID().uuidString)"
            documents[name] = bad
            keptAt = location(of: name)
        }
        if let bytes = change.bytes {
            documents[key] = bytes
        }
        return keptAt
    }

    private func location(of name: String) -> URL {
        URL(filePath: "/dictionary/\(name)")
    }
}
// Article "AStorageOfYourOwn" snippet 4: end

// Article "AStorageOfYourOwn" snippet 5: begin
@Test func theDictionaryMigratesADiarySavedAtVersion1() throws {
    let storage = DictionaryStorage()
    let version1 = StoreDocument(key: "diary", default: DiaryV1(text: ""), identity: "Diary")
    try storage.save(DiaryV1(text: "Rain\nSun"), to: version1)

    let diary = ValueStore(Diary.document, storage: storage, center: NotificationCenter())
    #expect(diary.value.entries == ["Rain", "Sun"])
    try diary.update { $0.entries.append("Snow") }
    #expect(try storage.load(Diary.document).value.entries == ["Rain", "Sun", "Snow"])
}

@Test func theDictionaryStorageKeepsItsPromises() {
    StorageConformance.check { DictionaryStorage() }
}
// Article "AStorageOfYourOwn" snippet 5: end

@Suite struct AStorageOfYourOwnArticleTests {
    static let mask: [UInt8] = [0x5A, 0xC3, 0x7E]

    /// The bytes of `data` XOR-ed with the article's mask, as the wrapper reveals them.
    static func revealed(_ data: Data) -> Data {
        Data(data.enumerated().map { index, byte in byte ^ mask[index % mask.count] })
    }

    @Test func theCopyKeptBeforeTheMigrationIsXORedToo() throws {
        try withTemporaryStoreFolder { temporary in
            let folder = temporary.appending(path: "diary")
            let storage = XORStorage(FileStorage(folder: folder, reportNotice: { _ in }), mask: Self.mask)
            let version1 = StoreDocument(key: "diary", default: DiaryV1(text: ""), identity: "Diary")
            try storage.save(DiaryV1(text: "Rain\nSun"), to: version1)
            try storage.update(Diary.document) { $0.entries.append("Snow") }

            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let backups = names.filter { $0.hasPrefix("diary~before-v2-") }
            #expect(backups.count == 1, "found \(names)")
            let backup = try Data(contentsOf: folder.appending(path: try #require(backups.first)))
            #expect(!String(decoding: backup, as: UTF8.self).contains("Rain"))
            #expect(String(decoding: Self.revealed(backup), as: UTF8.self).contains("Rain\\nSun"))
            let document = try DocumentFileText.envelope(at: folder.appending(path: "diary.json"))
            #expect(String(decoding: Self.revealed(document), as: UTF8.self).contains("Snow"))
        }
    }

    @Test func aBadDocumentInTheDictionaryIsKeptAsideAndReported() throws {
        let storage = DictionaryStorage()
        _ = try storage.transaction("diary", waits: true) { _ in
            DocumentDecision((), change: DocumentChange(bytes: Data("not a diary".utf8)))
        }
        let loaded = try storage.load(Diary.document)
        #expect(loaded.value == Diary() && !loaded.isStored)
        guard case .corrupted(let file, let keptAt, _)? = loaded.recovery else {
            Issue.record("the bad diary was reported as \(String(describing: loaded.recovery))")
            return
        }
        #expect(file.path == "/dictionary/diary")
        #expect(keptAt.path.hasPrefix("/dictionary/diary~corrupt-"))
        #expect(try storage.read("diary") == nil)
    }

    @Test func theDictionaryRefusesToWaitOnABusyKey() throws {
        let storage = DictionaryStorage()
        let inner = try storage.transaction("diary", waits: true) { _ throws(StorageError) in
            let nested = try storage.transaction("diary", waits: false) { _ in DocumentDecision("ran") }
            return DocumentDecision(nested?.result)
        }
        #expect(inner?.result == .some(nil))
    }
}
