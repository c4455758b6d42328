import Foundation
import SingletonStores
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

@Suite("Conformance of storages reached with await")
struct AsyncStorageConformanceTests {
    /// The test storage keeps every promise of an `AsyncStoreStorage`, as the conformance suite
    /// checks them: what the stores above rely on.
    @Test func theTestStorageKeepsItsPromises() async throws {
        let server = TestServer()
        let failures = try await StorageConformance.check { TestNetworkStorage(server: server) }
        #expect(failures.isEmpty)
    }

    /// A blocking storage through `asynchronous` keeps them too: two `FileStorage` instances on
    /// one folder are two processes' views of it.
    @Test func aFileStorageThroughAsynchronousKeepsThem() async throws {
        try await withTemporaryFolder { folder in
            let failures = try await StorageConformance.check {
                FileStorage(folder: folder, lockTimeout: .seconds(1), reportNotice: { _ in }).asynchronous
            }
            #expect(failures.isEmpty)
        }
    }

    /// A storage that answers a watch's read from a notice older than the commit it was told
    /// of fails the `watch` check, and only it.
    @Test func aStaleReadHeardFailsTheWatchCheck() async throws {
        let server = TestServer()
        var failures: [StorageConformance.Failure] = []
        try await withKnownIssue {
            failures = try await StorageConformance.check { StaleHeard(base: TestNetworkStorage(server: server)) }
        } matching: { issue in
            issue.description.contains("readHeard(_:) after another instance's commit was heard")
        }
        #expect(failures.map(\.check) == [.watch])
    }
}

/// Answers `readHeard` with nothing, as a storage that took in a notice older than the commit.
private struct StaleHeard: AsyncStoreStorage {
    let base: TestNetworkStorage

    var description: String { base.description }

    func read(_ key: String) async throws(StorageError) -> StoredBytes? { try await base.read(key) }

    func readHeard(_ key: String) async throws(StorageError) -> StoredBytes? {
        _ = try Self.validKey(key)
        return nil
    }

    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        try await base.transaction(key, waits: waits, body)
    }

    func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch? {
        try await base.watch(forKey: key, onChange: onChange)
    }
}
