import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

@Suite("StoreDocument")
struct StoreDocumentTests {
    @Test func aDocumentNamesItsKeyDefaultAndMigrationsOnce() throws {
        let migrations = DocumentMigrations<PersistedCounter>(version: 2)
            .step(from: 1) { (old: PersistedCounter) in PersistedCounter(count: old.count * 10, label: old.label) }
        let document = StoreDocument(key: "counter", default: PersistedCounter(count: 7), migrations: migrations)
        #expect(document.key == "counter")
        #expect(document.defaultValue == PersistedCounter(count: 7))
        #expect(document.migrations?.version == 2)
        #expect(try document.validKey() == "counter")
        #expect(StoreDocument(key: "plain", default: 0).migrations == nil)
    }

    @Test func anInvalidKeyIsFoundOnceAndEveryUseThrowsItTyped() throws {
        let document = StoreDocument(key: "../escape", default: PersistedCounter())
        #expect(document.keyProblem != nil)
        #expect(throws: StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator")) {
            try document.validKey()
        }
        try withTemporaryFolder { folder in
            let storages: [any StoreStorage] = [FileStorage(folder: folder), InMemoryStorage()]
            for storage in storages {
                #expect(throws: StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator")) {
                    try storage.load(document)
                }
                #expect(throws: StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator")) {
                    try storage.save(PersistedCounter(count: 1), to: document)
                }
                #expect(throws: StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator")) {
                    try storage.update(document) { $0.count += 1 }
                }
                #expect(throws: StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator")) {
                    try storage.updateIfAvailable(document) { $0.count += 1 }
                }
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            #expect(left.isEmpty, "nothing is made for an invalid key")
        }
    }

    /// Each kind of bad name gets its own reason, in this order of precedence; every name of the
    /// alphabet passes, and nothing outside ASCII does.
    @Test(arguments: [
        ("", "a store name can't be empty"),
        (String(repeating: "a", count: 121), "a store name is at most 120 characters"),
        ("a/b", "a store name can't contain a path separator"),
        ("a\\b", "a store name can't contain a path separator"),
        ("../x", "a store name can't contain a path separator"),
        ("a..b", "a store name can't contain “..”"),
        ("..", "a store name can't contain “..”"),
        (".hidden", "a store name can't start with a dot"),
        (".a b", "a store name can't start with a dot"),
        ("a b", "a store name takes only letters A–Z, digits, “.”, “_” and “-”"),
        ("caf\u{E9}", "a store name takes only letters A–Z, digits, “.”, “_” and “-”"),
        ("a~b", "a store name takes only letters A–Z, digits, “.”, “_” and “-”"),
        ("a\u{0}b", "a store name takes only letters A–Z, digits, “.”, “_” and “-”"),
    ])
    func eachBadNameIsRefusedWithItsReason(key: String, reason: String) {
        #expect(StorageKey.problem(with: key) == reason)
    }

    @Test func everyNameOfTheAlphabetPasses() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        for name in ["a", "a.b", "v1.2-beta_3", String(repeating: "z", count: 120), "x.", "-", "_"] {
            #expect(StorageKey.problem(with: name) == nil, "\(name)")
        }
        for character in alphabet where character != "." {
            #expect(StorageKey.problem(with: "k\(character)") == nil, "\(character)")
        }
    }

    @Test func aStoreOnADocumentWithMigrationsMigratesWhatAnOlderVersionWrote() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 4), to: StoreDocument(key: "counter", default: PersistedCounter()))
            let document = StoreDocument(
                key: "counter", default: PersistedCounter(),
                migrations: DocumentMigrations<PersistedCounter>(version: 2)
                    .step(from: 1) { (old: PersistedCounter) in PersistedCounter(count: old.count * 10) })
            let store = ValueStore(document, storage: storage, center: NotificationCenter(), watching: .off)
            #expect(store.value.count == 40)
            #expect(store.loadProblem == nil)
            try store.update { $0.count += 1 }
            #expect(try storage.load(document).value.count == 41)
        }
    }

    @Test func aPersistentStoreCoreTakesTheDocument() throws {
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 3)])
        let document = StoreDocument(key: "counter", default: PersistedCounter())
        let core = PersistentStoreCore(
            document, storage: storage, channel: NotificationChannel("StoreDocumentTests.counter"),
            center: NotificationCenter(), watching: .off)
        #expect(core.document.key == "counter")
        #expect(core.state.count == 3)
        try core.update { $0.count = 9 }
        #expect(storage.value(PersistedCounter.self, forKey: "counter")?.count == 9)
    }
}
