import Foundation
import SingletonStoresTestSupport
import Stores
import Testing
@testable import demo_cli

/// A command reads the documents of the stores it uses and no other: the documents it does not
/// use are damaged here, and must be left exactly as they are, with no warning.
@Suite("Each command loads only the stores it uses")
struct StoreLoadingTests {
    /// Bytes no store can read: a store that loads its document keeps it aside and warns.
    private static let damaged = Data("not a document".utf8)

    /// Runs `arguments` in-process on a data folder whose documents named in `untouched` are
    /// damaged; returns the exit status and output after checking that those documents were
    /// not read (none was kept aside, none warned about).
    private static func run(
        _ arguments: [String], untouched: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (status: demo_cli.ExitStatus, output: CapturedOutput) {
        try await withTemporaryFolder { folder in
            for key in untouched { try damaged.write(to: folder.appending(path: "\(key).json")) }
            let output = CapturedOutput()
            let status = await DemoCLI.run(
                arguments: ["--data-dir", folder.path(percentEncoded: false)] + arguments, environment: [:],
                console: output.console(isTerminal: false))
            #expect(!output.standardError.contains("warning"), "warned: \(output.standardError)", sourceLocation: sourceLocation)
            for key in untouched {
                let data = try? Data(contentsOf: folder.appending(path: "\(key).json"))
                #expect(data == damaged, "\(key).json was read", sourceLocation: sourceLocation)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            #expect(!names.contains { $0.contains("~corrupt") }, "kept aside: \(names)", sourceLocation: sourceLocation)
            return (status, output)
        }
    }

    @Test func profileShowReadsNoPurchasesBoostOrTarget() async throws {
        let (status, output) = try await Self.run(
            ["profile", "show"], untouched: ["purchases", "receipts", "boost", "apiTarget"])
        #expect(status == .success)
        #expect(output.standardOutput.hasPrefix("nickname: (not set)\n"))
    }

    @Test func linkWithAGivenGenderReadsOnlyTheTarget() async throws {
        let (status, output) = try await Self.run(
            ["link", "help", "--gender", "none"], untouched: ["profile", "purchases", "receipts", "boost"])
        #expect(status == .success)
        #expect(output.standardOutput == "https://www.hoge.com/api/web/help\n")
    }

    @Test func purchaseShowReadsNoBoostProfileOrTarget() async throws {
        let (status, output) = try await Self.run(["purchase", "show"], untouched: ["boost", "profile", "apiTarget"])
        #expect(status == .success)
        #expect(output.standardOutput.hasPrefix("boost items: 0\n"))
    }

    @Test func boostUseReadsNoProfileOrTarget() async throws {
        let (status, output) = try await Self.run(["boost", "use"], untouched: ["profile", "apiTarget"])
        #expect(status == .failure, "no item to spend")
        #expect(output.standardError == "demo-cli: \(PurchaseError.noBoostItems)\n")
    }

    @Test func demoStoresBuildEachStoreOnFirstUse() throws {
        try withTemporaryFolder { folder in
            let output = CapturedOutput()
            let stores = DemoStores(
                dataDirectory: folder.path(percentEncoded: false), clock: ContinuousClock(),
                console: output.console(isTerminal: false))
            #expect(stores.builtStores.isEmpty)
            _ = stores.profile.profile
            #expect(stores.builtStores == ["profile"])
            _ = stores.purchases.ownedBoostItems
            #expect(stores.builtStores == ["profile", "purchases"], "showing purchases needs no boost")
            #expect(throws: PurchaseError.noBoostItems) { try stores.purchases.useBoostItem(duration: 60) }
            #expect(stores.builtStores == ["boost", "profile", "purchases"], "spending an item reads the boost")
            #expect(stores.purchases === stores.purchases, "built once")
        }
    }

    @Test func concurrentFirstUsesAllGetTheOneKeptStore() async {
        final class Built: Sendable {}
        let store = LazyStore { Built() }
        let seen = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<64 { group.addTask { ObjectIdentifier(store.value) } }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(seen.count == 1)
        #expect(seen.first == ObjectIdentifier(store.value))
    }
}
