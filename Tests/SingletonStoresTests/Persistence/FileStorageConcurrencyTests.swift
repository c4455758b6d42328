import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

@Suite("FileStorage under concurrent writers", .ownThread)
struct FileStorageConcurrencyTests {
    /// FileStorage's only in-process lock orders waiters; `flock` on the lock file stands between these
    /// eight instances (eight tasks, each waiting on a writer thread), so an exact total
    /// proves the file lock excludes them.
    @Test func eightInstancesLoseNoIncrement() async throws {
        try await withTemporaryFolder { folder in
            let writers = 8
            let increments = 250
            await onSeparateThreads(writers) { _ in
                let storage = FileStorage(folder: folder)  // a different instance per writer
                for _ in 0..<increments {
                    do {
                        try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                            $0.count += 1
                        }
                    } catch {
                        Issue.record("update failed: \(error)")
                    }
                }
            }
            let total = try FileStorage(folder: folder).load(
                StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(total.value.count == writers * increments)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
            // `counter.lock-queue` is there when a writer had to wait for another.
            #expect(
                names.filter { $0 != "counter.lock-queue" } == ["counter.json", "counter.lock"],
                "no temporary or kept files left")
        }
    }

    /// Readers never see a half-written document while a writer replaces it.
    @Test func readersNeverSeeAPartialDocument() async throws {
        try await withTemporaryFolder { folder in
            let writer = FileStorage(folder: folder)
            let reader = FileStorage(folder: folder)
            let big = PersistedCounter(count: 0, label: String(repeating: "x", count: 100_000))
            try writer.save(big, to: StoreDocument(key: "big", default: big))
            await onSeparateThreads(2) { role in
                for _ in 0..<100 {
                    do {
                        if role == 0 {
                            try writer.update(StoreDocument(key: "big", default: PersistedCounter())) {
                                $0.count += 1
                            }
                        } else {
                            let loaded = try reader.load(StoreDocument(key: "big", default: PersistedCounter()))
                            #expect(loaded.recovery == nil && loaded.isStored)
                        }
                    } catch {
                        Issue.record("storage call failed: \(error)")
                    }
                }
            }
            #expect(try reader.load(StoreDocument(key: "big", default: PersistedCounter())).value.count == 100)
        }
    }
}
