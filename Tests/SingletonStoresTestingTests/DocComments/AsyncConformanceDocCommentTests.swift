// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
import SingletonStores
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

/// The doc comment's storage: one that suspends as a network call does, on a server of its own.
private typealias MyNetworkStorage = TestNetworkStorage
private let server = TestServer()

// Doc "SingletonStoresTesting/Conformance/StorageConformance+Async.swift" snippet 1: begin
@Test func myNetworkStorageKeepsItsPromises() async throws {
    try await StorageConformance.check { MyNetworkStorage(server: server) }
}
// Doc "SingletonStoresTesting/Conformance/StorageConformance+Async.swift" snippet 1: end
