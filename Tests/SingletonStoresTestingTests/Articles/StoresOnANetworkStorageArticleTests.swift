// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the article, laid out as it shows
// it, so the formatter leaves this file alone.)
import Foundation
import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

// The article "Stores on a network storage": its code, compiled and run against a stand-in for a
// database client (rows of bytes by key, row locks, LISTEN), which shares one test server per name.

/// A database client as the article's storage uses it: what a PostgresNIO client would do with
/// SELECT, SELECT … FOR UPDATE, an upsert with NOTIFY and COMMIT, and LISTEN.
struct RowTable: Sendable {
    let name: String
    private let server: TestNetworkStorage

    private static let servers = Locked<[String: TestServer]>([:])

    init(name: String) {
        self.name = name
        let server = Self.servers.withLock { servers in
            if let server = servers[name] { return server }
            let server = TestServer()
            servers[name] = server
            return server
        }
        self.server = TestNetworkStorage(server: server)
    }

    func bytes(of key: String) async throws(StorageError) -> Data? { try await server.read(key)?.bytes }

    func address(of key: String) -> URL { TestNetworkStorage.location(key) }

    func withRowLock<Result>(
        _ key: String, waiting: Bool, _ body: (Data?) throws(StorageError) -> (DocumentChange, Result)
    ) async throws(StorageError) -> (result: Result, keptAt: URL?)? {
        try await server.transaction(key, waits: waiting) { (current) throws(StorageError) in
            let (change, result) = try body(current?.bytes)
            return DocumentDecision(result, change: change)
        }.map { ($0.result, $0.keptAt) }
    }

    func listen(to key: String, _ onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> Listener {
        Listener(watch: try await server.watch(forKey: key, onChange: onChange))
    }

    struct Listener: Sendable {
        let watch: StorageWatch?
        func cancel() { watch?.cancel() }
    }
}

// Article "StoresOnANetworkStorage" snippet 3: begin
struct TableStorage: AsyncStoreStorage {
    let table: RowTable  // your database client: rows of bytes by key, and row locks

    var description: String { table.name }  // names the server in messages; never a password

    func read(_ key: String) async throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        let bytes = try await table.bytes(of: key)  // a plain SELECT: never waits for a writer
        return bytes.map { StoredBytes($0, location: table.address(of: key)) }
    }

    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        let key = try Self.validKey(key)
        // SELECT … FOR UPDATE: NOWAIT when `waits` is false, else a bounded lock_timeout.
        let done = try await table.withRowLock(key, waiting: waits) { current throws(StorageError) in
            let decision = try body(current.map { StoredBytes($0, location: table.address(of: key)) })
            return (decision.change, decision.result)  // written (a bad document kept under another key), then COMMIT
        }
        return done.map { DocumentCommit($0.result, keptAt: $0.keptAt) }
    }

    func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch? {
        let key = try Self.validKey(key)
        let listener = try await table.listen(to: key, onChange)  // LISTEN, NOTIFY sent in the commit
        return StorageWatch(mechanism: { .polling(interval: .zero) }, stop: { listener.cancel() })
    }
}
// Article "StoresOnANetworkStorage" snippet 3: end

@Suite("The article on stores on a network storage")
struct StoresOnANetworkStorageArticleTests {
    @Test func theStoreExample() async throws {
        let storage = TableStorage(table: RowTable(name: "article \(UUID())"))
        // Article "StoresOnANetworkStorage" snippet 1: begin
struct Flags: Codable, Sendable, Equatable { var newCheckout = false }

let flags = try await SharedValueStore(key: "flags", default: Flags(), storage: storage)
if flags.value.newCheckout {                              // from memory, never waits
    print("new checkout")
}
try await flags.update { $0.newCheckout.toggle() }        // under the row's lock, everywhere
        // Article "StoresOnANetworkStorage" snippet 1: end
        #expect(flags.value.newCheckout)
    }

    @Test func theCountdownExample() async throws {
        let storage = TableStorage(table: RowTable(name: "article \(UUID())"))
        // Article "StoresOnANetworkStorage" snippet 2: begin
let boost = try await SharedCountdownStore(key: "boost", storage: storage)
try await boost.startIfIdle(duration: .seconds(30 * 60))  // one start wins, on any machine
let token = boost.observe { seconds in
    print("boost: \(seconds.formatted(.countdown))")       // here, and on every other instance
}
        // Article "StoresOnANetworkStorage" snippet 2: end
        #expect(boost.remainingSeconds == 1_800)
        token.cancel()
    }

    // Article "StoresOnANetworkStorage" snippet 4: begin
@Test func myTableStorageKeepsItsPromises() async throws {
    try await StorageConformance.check { TableStorage(table: RowTable(name: "stores on the test server")) }
}
    // Article "StoresOnANetworkStorage" snippet 4: end
}
