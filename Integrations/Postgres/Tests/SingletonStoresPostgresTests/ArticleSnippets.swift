// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the article, laid out as it shows
// it, so the formatter leaves this file alone.)
import Foundation
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Testing

// The article "Stores shared across machines" (SingletonStoresPostgres.docc): every Swift block,
// verbatim between the markers
//
//     // Article "StoresSharedAcrossMachines" snippet <n>: begin
//     …the block's code, exactly…
//     // Article "StoresSharedAcrossMachines" snippet <n>: end
//
// (the markers may be indented, the code between them may not), so that it is compiled with the
// package's tests. Those that need no more than a running database run against the test server
// when SINGLETON_STORES_POSTGRES_URL names one; the last suite checks that article and mirrors
// agree.

/// The article's blocks, each in the function that gives it the names it uses.
enum StoresSharedAcrossMachinesArticle {
    static func overview(storage: PostgresStorage) async throws {
        // Article "StoresSharedAcrossMachines" snippet 1: begin
let visits = try await SharedValueStore(key: "visits", default: 0, storage: storage)  // loaded, or it throws
try await visits.update { $0 += 1 }  // under the key's lock, on every machine
print(visits.value)                  // from memory: never waits
        // Article "StoresSharedAcrossMachines" snippet 1: end
    }

    static func runInATask(databaseURL: String) async throws {
        // Article "StoresSharedAcrossMachines" snippet 2: begin
let storage = try PostgresStorage(url: databaseURL)  // postgres://USER:PASSWORD@HOST:5432/DATABASE
try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await storage.run() }  // connects, and connects again, until cancelled
    let visits = try await SharedValueStore(key: "visits", default: 0, storage: storage)
    try await visits.update { $0 += 1 }
    group.cancelAll()  // shuts the storage down: its connections are closed
}
        // Article "StoresSharedAcrossMachines" snippet 2: end
    }

    static func tls(password: String) throws -> PostgresStorage {
        // Article "StoresSharedAcrossMachines" snippet 4: begin
var tls = TLSConfiguration.makeClientConfiguration()
tls.trustRoots = .file("/etc/ssl/certs/db-ca.pem")  // the authority that signed the server's certificate
let configuration = PostgresClient.Configuration(
    host: "db.internal", port: 5432, username: "app", password: password, database: "app", tls: .require(tls))
let storage = try PostgresStorage(
    configuration: configuration,
    options: .init(table: "checkout_stores", lockTimeout: .seconds(2), reachTimeout: .seconds(10)))
        // Article "StoresSharedAcrossMachines" snippet 4: end
        return storage
    }

    static func handlingErrors(wallet: SharedValueStore<Int>) async {
        // Article "StoresSharedAcrossMachines" snippet 6: begin
do throws(SpendError) {
    let left = try await spend(5, from: wallet)
    print("spent 5, \(left) left")
} catch {
    switch error {
    case .short(let balance):
        print("refused: the wallet holds \(balance)")  // nothing changed
    case .storage(.commitOutcomeUnknown):
        // Spent or not: the wallet was read again if the server answered. Look before spending again.
        print("the spend may or may not have been made; the wallet shows \(wallet.value)")
    case .storage(let error):
        print(error)  // backendUnreachable, lockTimedOut…: nothing changed; try again later
    }
}
        // Article "StoresSharedAcrossMachines" snippet 6: end
    }

    static func lockNumber() {
        // Article "StoresSharedAcrossMachines" snippet 7: begin
let lock = PostgresStorage.lockKey(table: "singleton_stores", key: "wallet")
print("SELECT pg_advisory_lock(\(lock));")  // holds the wallet against every store until pg_advisory_unlock
        // Article "StoresSharedAcrossMachines" snippet 7: end
    }

    static func synchronousReplication(password: String) throws -> PostgresStorage {
        // Article "StoresSharedAcrossMachines" snippet 8: begin
var configuration = PostgresClient.Configuration(
    host: "db.internal", username: "app", password: password, database: "app", tls: .require(.makeClientConfiguration()))
configuration.options.additionalStartupParameters.append(("synchronous_commit", "remote_apply"))
let storage = try PostgresStorage(configuration: configuration)
        // Article "StoresSharedAcrossMachines" snippet 8: end
        return storage
    }

    static func roundTrips(storage: PostgresStorage, visits: SharedValueStore<Int>) async throws {
        // Article "StoresSharedAcrossMachines" snippet 9: begin
try await visits.update { $0 += 1 }
print(storage.roundTrips.lastCommit)  // 1: the row still held what this storage last saw
        // Article "StoresSharedAcrossMachines" snippet 9: end
    }
}

// A whole file of an app: its imports stand at the top of this one's scope.
// Article "StoresSharedAcrossMachines" snippet 3: begin
import Logging
import ServiceLifecycle
import SingletonStores
import SingletonStoresPostgres

struct FeatureFlags: Codable, Sendable, Equatable { var newCheckout = false }

func runServer(databaseURL: String) async throws {
    let storage = try PostgresStorage(url: databaseURL)
    let server = ClosureService {  // your server; this one prints the flags each time they change
        let flags = try await SharedValueStore(key: "flags", default: FeatureFlags(), storage: storage)
        for await change in flags.changes().cancelOnGracefulShutdown() {
            print("new checkout: \(change.new.newCheckout)")
        }
    }
    let group = ServiceGroup(
        services: [storage, server],  // shut down in reverse: the server, then the storage
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: Logger(label: "server"))
    try await group.run()
}
// Article "StoresSharedAcrossMachines" snippet 3: end

// Article "StoresSharedAcrossMachines" snippet 5: begin
enum SpendError: StoreFailure {
    case short(balance: Int)
    case storage(StorageError)
}

func spend(_ amount: Int, from wallet: SharedValueStore<Int>) async throws(SpendError) -> Int {
    try await wallet.update { (balance: inout Int) throws(SpendError) in
        guard balance >= amount else { throw .short(balance: balance) }
        balance -= amount
        return balance
    }
}
// Article "StoresSharedAcrossMachines" snippet 5: end

@Suite(.enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason))
struct StoresSharedAcrossMachinesArticleTests {
    let options = PostgresStorage.Options(table: TestDatabase.freshTable())

    @Test func theStoreExamplesRun() async throws {
        try await withRunningStorages(options: options) { storages in
            let storage = storages[0]
            try await StoresSharedAcrossMachinesArticle.overview(storage: storage)
            let visits = try await SharedValueStore(key: "visits", default: 0, storage: storage, follows: false)
            #expect(visits.value == 1)
            try await StoresSharedAcrossMachinesArticle.roundTrips(storage: storage, visits: visits)
            #expect(visits.value == 2)
            #expect(storage.roundTrips.lastCommit == 1, "what the article's comment says")
            let wallet = try await SharedValueStore(key: "wallet", default: 0, storage: storage, follows: false)
            await StoresSharedAcrossMachinesArticle.handlingErrors(wallet: wallet)  // refused: the wallet is empty
            try await wallet.set(7)
            await StoresSharedAcrossMachinesArticle.handlingErrors(wallet: wallet)  // spent
            #expect(wallet.value == 2)
            #expect(PostgresStorage.lockKey(table: "singleton_stores", key: "wallet") != 0)
            StoresSharedAcrossMachinesArticle.lockNumber()
        }
    }

    @Test func theStorageRunsInATaskOfItsOwn() async throws {
        try await StoresSharedAcrossMachinesArticle.runInATask(databaseURL: try #require(TestDatabase.url))
    }
}

@Suite struct StoresSharedAcrossMachinesArticleMirrorTests {
    /// This package's folder, found from this file's path.
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let article = package.appending(
        path: "Sources/SingletonStoresPostgres/SingletonStoresPostgres.docc/StoresSharedAcrossMachines.md")

    @Test func everySwiftBlockOfTheArticleIsMirroredVerbatimHere() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = Self.blocks(of: text, language: "swift")
        #expect(blocks.count >= 5, "the article shows its Swift code in ```swift blocks")
        let mirrors = Self.mirrors(in: source)
        for (index, block) in blocks.enumerated() {
            let number = index + 1
            let appears = source.contains(block)
            #expect(appears, "snippet \(number) of the article appears nowhere in \(#fileID)")
            #expect(
                mirrors[number] == [block],
                """
                snippet \(number) of StoresSharedAcrossMachines.md must be copied exactly once, between \
                "// Article \"StoresSharedAcrossMachines\" snippet \(number): begin" and its end marker
                """)
        }
        let extra = mirrors.keys.filter { $0 < 1 || $0 > blocks.count }.sorted()
        #expect(extra.isEmpty, "this file mirrors snippets the article does not have: \(extra)")
    }

    /// The install lines are a manifest's, checked rather than compiled: the kit's line is the
    /// README's, the integration is this package, named after its folder, with its real product.
    @Test func theInstallLinesAreTheReadmesAndThisPackages() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let install = try #require(Self.blocks(of: text, language: "text").first { $0.contains(".package(") })
        let root = Self.package.deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let kitLine = try #require(readme.firstMatch(of: /\.package\(url: "[^"]+", \.upToNextMinor\(from: "[0-9.]+"\)\)/))
        #expect(install.contains(String(kitLine.output)), "the kit's line differs from the README's: \(kitLine.output)")
        #expect(install.contains(#".package(path: "../SingletonStores/Integrations/\#(Self.package.lastPathComponent)")"#))
        let manifest = try String(contentsOf: Self.package.appending(path: "Package.swift"), encoding: .utf8)
        let named = install.matches(of: /\.product\(name: "([A-Za-z]+)", package: "Postgres"\)/).map { String($0.output.1) }
        #expect(named == ["SingletonStoresPostgres"])
        for product in named {
            #expect(manifest.contains(".library(name: \"\(product)\""), "Package.swift has no library product \(product)")
        }
        #expect(Self.package.lastPathComponent == "Postgres", "a package added by path is named after its folder")
    }

    /// The contents of every ```<language> block of a Markdown text, in order.
    static func blocks(of markdown: String, language: String) -> [String] {
        var blocks: [String] = []
        var rest = markdown[...]
        while let open = rest.range(of: "```\(language)\n"), let close = rest[open.upperBound...].range(of: "```") {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }

    /// The code between each pair of this article's markers in `source`, by snippet number.
    static func mirrors(in source: String) -> [Int: [String]] {
        let prefix = "// Article \"StoresSharedAcrossMachines\" snippet "
        var mirrors: [Int: [String]] = [:]
        var open: (number: Int, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let marker = line.drop { $0 == " " }
            if marker.hasPrefix(prefix), marker.hasSuffix(": begin"),
                let number = Int(marker.dropFirst(prefix.count).dropLast(": begin".count))
            {
                open = (number, [])
            } else if marker.hasPrefix(prefix), marker.hasSuffix(": end"), let current = open {
                mirrors[current.number, default: []].append(current.lines.map { $0 + "\n" }.joined())
                open = nil
            } else if open != nil {
                open?.lines.append(line)
            }
        }
        return mirrors
    }
}
