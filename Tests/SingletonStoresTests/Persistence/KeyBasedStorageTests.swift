import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

// A storage written for an earlier version implements the key-based requirements of
// `StoreStorage`, now deprecated, and apps call the key-based methods. Both still compile and
// still work. The code that uses them is marked deprecated, so that this file builds without
// warnings, and runs through `KeyBasedScenario`, a requirement that is not.

/// Something written against the key-based API, run by a test.
private protocol KeyBasedScenario {
    func run() throws
}

@Suite("A storage and calls written for the key-based API")
struct KeyBasedStorageTests {
    @Test func aStorageThatImplementsOnlyTheKeyBasedRequirementsBacksStores() throws {
        try (StoresOnAKeyBasedStorage() as any KeyBasedScenario).run()
    }

    @Test func theKeyBasedCallsForwardToTheDocumentBasedOnes() throws {
        try (KeyBasedCalls() as any KeyBasedScenario).run()
    }
}

/// A custom storage as an app wrote it for 0.1.0: `load`, `save` and `update` by key, in memory,
/// as JSON. It counts its calls, to show that the stores reach them.
@available(*, deprecated, message: "written against the key-based requirements")
private final class KeyBasedStorage: StoreStorage {
    struct Calls: Equatable { var loads = 0, saves = 0, updates = 0 }
    let documents = Locked([String: Data]())
    let calls = Locked(Calls())

    func load<Value: Codable & Sendable>(
        _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value
    ) throws(StorageError) -> StorageLoad<Value> {
        calls.withLock { $0.loads += 1 }
        guard let data = documents.withLock({ $0[key] }) else { return StorageLoad(value: defaultValue(), isStored: false) }
        do {
            return StorageLoad(value: try JSONDecoder().decode(Value.self, from: data), isStored: true)
        } catch {
            throw .readFailed(file: URL(filePath: "/keyed/\(key)"), reason: "\(error)")
        }
    }

    func save<Value: Codable & Sendable>(_ value: Value, forKey key: String) throws(StorageError) -> StorageError? {
        calls.withLock { $0.saves += 1 }
        let data = try encode(value, key: key)
        documents.withLock { $0[key] = data }
        return nil
    }

    func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type, forKey key: String, default defaultValue: @autoclosure () -> Value,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        calls.withLock { $0.updates += 1 }
        var value = try load(Value.self, forKey: key, default: defaultValue()).value
        calls.withLock { $0.loads -= 1 }  // the load inside an update is not one of the store's loads
        let outcome = try body(&value)
        let data = try encode(value, key: key)
        documents.withLock { $0[key] = data }
        return StorageUpdate(value: value, outcome: outcome, didWrite: true, recovery: nil)
    }

    private func encode<Value: Encodable>(_ value: Value, key: String) throws(StorageError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .encodingFailed(key: key, reason: "\(error)") }
    }
}

private struct StoresOnAKeyBasedStorage: KeyBasedScenario {
    @available(*, deprecated, message: "uses a storage written against the key-based requirements")
    func run() throws {
        let storage = KeyBasedStorage()
        let document = StoreDocument(key: "counter", default: PersistedCounter(count: 5))

        // The document-based requirements reach the storage's own key-based methods.
        #expect(try storage.load(document) == StorageLoad(value: PersistedCounter(count: 5), isStored: false))
        try storage.save(PersistedCounter(count: 6), to: document)
        #expect(try storage.update(document) { $0.count += 1 }.value.count == 7)
        #expect(try storage.updateIfAvailable(document) { $0.count += 1 }?.value.count == 8)
        #expect(storage.calls.withLock { $0 } == KeyBasedStorage.Calls(loads: 1, saves: 1, updates: 2))

        // So do the stores built on it.
        let store = ValueStore(document, storage: storage, center: NotificationCenter(), watching: .off)
        #expect(store.value.count == 8)
        try store.update { $0.count = 20 }
        let core = PersistentStoreCore(
            key: "counter", default: PersistedCounter(), storage: storage,
            channel: NotificationChannel("KeyBasedStorageTests.counter"), center: NotificationCenter(), watching: .off)
        #expect(core.state.count == 20)
        #expect(storage.calls.withLock { $0 } == KeyBasedStorage.Calls(loads: 3, saves: 1, updates: 3))
    }
}

private struct KeyBasedCalls: KeyBasedScenario {
    @available(*, deprecated, message: "calls the key-based methods")
    func run() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let migrations = DocumentMigrations<PersistedCounter>(version: 2)
                .step(from: 1) { (old: PersistedCounter) in PersistedCounter(count: old.count * 10) }

            #expect(try storage.save(PersistedCounter(count: 1), forKey: "counter") == nil)
            #expect(try storage.load(PersistedCounter.self, forKey: "counter", default: PersistedCounter()).value.count == 1)
            try storage.update(PersistedCounter.self, forKey: "counter", default: PersistedCounter()) { $0.count += 1 }
            try storage.updateIfAvailable(PersistedCounter.self, forKey: "counter", default: PersistedCounter()) {
                $0.count += 1
            }
            // With migrations: the version-1 document is migrated (3 × 10), then changed.
            let loaded = try storage.load(
                PersistedCounter.self, forKey: "counter", default: PersistedCounter(), migrations: migrations)
            #expect(loaded.value.count == 30)
            try storage.update(PersistedCounter.self, forKey: "counter", default: PersistedCounter(), migrations: migrations) {
                $0.count += 1
            }
            try storage.updateIfAvailable(
                PersistedCounter.self, forKey: "counter", default: PersistedCounter(), migrations: migrations
            ) { $0.count += 1 }
            try storage.save(PersistedCounter(count: 50), forKey: "other", migrations: migrations)
            let document = StoreDocument(key: "counter", default: PersistedCounter(), migrations: migrations)
            #expect(try storage.load(document).value.count == 32)
        }

        // The same calls on an InMemoryStorage.
        let memory = InMemoryStorage()
        #expect(try memory.save(PersistedCounter(count: 1), forKey: "counter") == nil)
        try memory.update(PersistedCounter.self, forKey: "counter", default: PersistedCounter()) { $0.count += 1 }
        #expect(try memory.load(PersistedCounter.self, forKey: "counter", default: PersistedCounter()).value.count == 2)
    }
}
