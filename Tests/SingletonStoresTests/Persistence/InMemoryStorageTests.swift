import SingletonStoresTestSupport
import Foundation
import Testing
import SingletonStores

@Suite("InMemoryStorage")
struct InMemoryStorageTests {
    @Test func seededValueLoadsAndMissingKeyGivesTheDefault() throws {
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 3)])
        #expect(
            try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                == StorageLoad(value: PersistedCounter(count: 3), isStored: true))
        #expect(
            try storage.load(StoreDocument(key: "other", default: PersistedCounter(count: 9)))
                == StorageLoad(value: PersistedCounter(count: 9), isStored: false))
    }

    @Test func saveAndUpdateChangeTheStoredValue() throws {
        let storage = InMemoryStorage()
        try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
        let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
            $0.count += 1
            return "done"
        }
        #expect(update == StorageUpdate(value: PersistedCounter(count: 2), outcome: "done", didWrite: true))
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == PersistedCounter(count: 2))

        let unchanged = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { _ in }
        #expect(!unchanged.didWrite)
    }

    @Test func simulatedRecoveryDropsTheValueOnceAndIsReported() throws {
        let problem = StorageError.corrupted(
            file: InMemoryStorage.location(forKey: "counter"),
            keptAt: InMemoryStorage.location(forKey: "counter~corrupt"),
            reason: "truncated"
        )
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 3)])
        storage.simulateRecovery(problem, forKey: "counter")

        let first = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
        #expect(first == StorageLoad(value: PersistedCounter(), isStored: false, recovery: problem))
        let second = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
        #expect(second.recovery == nil)
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == nil)
    }

    @Test func valueOfAnotherTypeIsAnotherStoresAndIsKept() throws {
        let storage = InMemoryStorage(["counter": "not a counter"])
        let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
        #expect(loaded.value == PersistedCounter())
        guard case .documentOfAnotherStore(_, "String", "PersistedCounter")? = loaded.recovery else {
            Issue.record("expected another store's document, got \(String(describing: loaded.recovery))")
            return
        }
        #expect(storage.value(String.self, forKey: "counter") == "not a counter")
    }

    @Test func simulatedWriteFailureIsThrownAndChangesNothing() throws {
        let failure = StorageError.writeFailed(file: InMemoryStorage.location(forKey: "counter"), reason: "disk full")
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 1)])
        storage.simulateWriteFailure(failure, forKey: "counter")
        #expect(throws: failure) {
            try storage.save(PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
        }
        #expect(throws: failure) {
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count = 7 }
        }
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == PersistedCounter(count: 1))

        storage.simulateWriteFailure(nil, forKey: "counter")
        try storage.save(PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == PersistedCounter(count: 5))
    }

    @Test(arguments: ["", "a/b", "..", ".hidden"])
    func invalidKeyIsRejectedAsByFileStorage(key: String) {
        let storage = InMemoryStorage()
        #expect(throws: StorageError.self) {
            try storage.load(StoreDocument(key: key, default: PersistedCounter()))
        }
        #expect(throws: StorageError.self) {
            try storage.save(PersistedCounter(), to: StoreDocument(key: key, default: PersistedCounter()))
        }
        #expect(throws: StorageError.self) {
            try storage.update(StoreDocument(key: key, default: PersistedCounter())) { $0.count += 1 }
        }
    }

    @Test func concurrentUpdatesLoseNothing() async throws {
        let storage = InMemoryStorage()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<250 {
                        _ = try? storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                            $0.count += 1
                        }
                    }
                }
            }
        }
        #expect(storage.value(PersistedCounter.self, forKey: "counter")?.count == 2_000)
    }

    @Test func valueThatCannotBeEncodedFailsAsOnDisk() {
        let storage = InMemoryStorage()
        #expect(throws: StorageError.self) {
            try storage.save([Double.nan], to: StoreDocument(key: "numbers", default: [Double.nan]))
        }
        #expect(storage.value([Double].self, forKey: "numbers") == nil)
    }
}
