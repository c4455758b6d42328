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
    /// one folder are two processes' views of it. Their lock timeout is 5 s, not 1: the eight
    /// concurrent transactions of one key wait for the writes before them, each with its sync,
    /// on a loaded machine too.
    @Test func aFileStorageThroughAsynchronousKeepsThem() async throws {
        try await withTemporaryFolder { folder in
            let failures = try await StorageConformance.check {
                FileStorage(folder: folder, lockTimeout: .seconds(5), reportNotice: { _ in }).asynchronous
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
            // As a storage that took in a notice older than the commit: nothing.
            failures = try await StorageConformance.check {
                HeardAnswering(base: TestNetworkStorage(server: server)) { _, _ in nil }
            }
        } matching: { issue in
            issue.description.contains("readHeard(_:) after another instance's commit was heard")
        }
        #expect(failures.map(\.check) == [.watch])
    }
}
