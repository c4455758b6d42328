// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The README's quick start, verbatim between the markers, so that it always compiles — in a test
// target that depends on SingletonStores alone, which proves the kit works without the built-in
// stores and without Timers. The tests exercise it without touching any process-wide state.
// The README's other examples are mirrored in Tests/StoresTests: ReadmeBuiltInStoresTests.swift
// (the built-in stores), ReadmeTestingTests.swift (testing) and ReadmeSwiftUITests.swift; the
// first test here checks all.

import Observation
import Synchronization

// README quick start: begin
import Foundation
import SingletonStores
import Testing

struct Cart: Codable, Sendable, Equatable { var items: [String] = [] }

enum CartKey: ProductionStoreKey {  // registers the store: production by default
    static let productionValue = ValueStore(key: "cart", default: Cart())  // <data folder>/cart.json
    static var stubValue: ValueStore<Cart> { ValueStore(stub: Cart()) }
}
extension StoreValues {
    var cart: ValueStore<Cart> { get { self[CartKey.self] } set { self[CartKey.self] = newValue } }
}

func badgeText(cart: ValueStore<Cart> = StoreValues.current.cart) -> String { "\(cart.value.items.count) in cart" }

func add(_ item: String, to cart: ValueStore<Cart> = StoreValues.current.cart) throws {
    try cart.update { $0.items.append(item) }  // one locked transaction: on disk, then posted
}

func watchCart() -> ObservationToken {  // keep the token; drop it to stop observing
    StoreValues.current.cart.observe { change in print("cart: \(change.old.items) → \(change.new.items)") }
}

@Test func badgeCountsWhatWasAdded() throws {
    try withStores { $0.cart = ValueStore(stub: Cart()) } operation: {  // a stub that changes and posts
        try add("socks")
        #expect(badgeText() == "1 in cart")
    }
}
// README quick start: end

@Suite struct ReadmeQuickStartTests {
    @Test func readmeBlockMatchesThisFile() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let mirrored = try #require(source.between("// README quick start: begin\n", "// README quick start: end"))
        let blocks = readme.swiftBlocks
        #expect(blocks.count == 2, "the README shows two Swift blocks: the install snippet and the quick start")
        let quickStart = try #require(blocks.dropFirst().first)
        #expect(quickStart == mirrored, "README.md's quick start and this file must stay identical")
        #expect(quickStart.split(separator: "\n").count <= 40)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 170, "the README is a front door")
    }

    /// The install snippet is a whole manifest, checked rather than compiled: every product it
    /// names exists in Package.swift, its platforms are the package's, and it asks for the newest
    /// minor version up to the next one (source stability holds within a minor version before
    /// 1.0): the newest release, or the one the CHANGELOG's Unreleased section prepares when it
    /// tells how to upgrade to it ("Upgrading from 0.1" prepares 0.2.0).
    @Test func installSnippetNamesRealProductsAndTheReleasedVersion() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let install = try #require(readme.swiftBlocks.first)
        let named = install.matches(of: /\.product\(name: "([A-Za-z]+)", package: "SingletonStores"\)/).map { String($0.output.1) }
        #expect(named == ["SingletonStores", "SingletonStoresTesting"])
        for product in named {
            #expect(manifest.contains(".library(name: \"\(product)\""), "Package.swift has no library product \(product)")
        }
        let version = try #require(install.firstMatch(of: /\.upToNextMinor\(from: "([0-9]+\.[0-9]+\.[0-9]+)"\)/)).output.1
        let released = try #require(changelog.firstMatch(of: /## \[([0-9]+)\.([0-9]+)\.([0-9]+)\]/)).output
        let (major, minor) = (String(released.1), String(released.2))
        let upgradeUnreleased = changelog.split(separator: "## [")
            .contains { $0.hasPrefix("Unreleased]") && $0.contains("### Upgrading from \(major).\(minor)") }
        let expected = upgradeUnreleased ? "\(major).\((Int(minor) ?? 0) + 1).0" : "\(major).\(minor).\(released.3)"
        #expect(version == expected, "the install snippet asks for \(version); the CHANGELOG says \(expected)")
        #expect(install.contains("\"Stores\""), "the snippet says where the built-in stores come from")
        #expect(install.contains(".package(path: "), "the snippet shows a local checkout too")
        #expect(install.contains("import PackageDescription") && install.contains("let package = Package("), "a whole manifest")
        let platforms = try #require(install.firstMatch(of: /platforms: (\[[^\]]*\])/)).output.1
        #expect(manifest.contains("platforms: \(platforms)"), "the snippet's platforms are the package's floor")
        #expect(readme.contains("the package's name is its folder's"))
    }

    /// The issue's promise: a persisted, observable, overridable store in at most ten lines.
    @Test func theStoreTakesEightLines() throws {
        let testFile = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: testFile, encoding: .utf8)
        let mirrored = try #require(source.between("// README quick start: begin\n", "// README quick start: end"))
        let lines = mirrored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("struct Cart") })
        let accessor = try #require(lines.firstIndex { $0.hasPrefix("extension StoreValues") })
        let last = try #require(lines[accessor...].firstIndex { $0 == "}" })
        let declaration = lines[first...last].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(declaration.count == 8, "\(declaration.joined(separator: "\n"))")
    }

    @Test func theCartIsPersistedObservedAndPostedOnItsChannel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("QuickStart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let center = NotificationCenter()
        let cart = ValueStore(
            key: "cart", default: Cart(), storage: FileStorage(folder: folder), center: center, watching: .off,
            reportIssue: { _ in })
        let seen = Mutex<[[String]]>([])
        let token = cart.observe { change in seen.withLock { $0.append(change.new.items) } }
        let classic = Mutex(0)
        let named = center.addObserver(forName: cart.channel.name, object: nil, queue: nil) { _ in
            classic.withLock { $0 += 1 }
        }
        defer {
            token.cancel()
            center.removeObserver(named)
        }
        try add("socks", to: cart)
        try add("hat", to: cart)
        #expect(badgeText(cart: cart) == "2 in cart")
        #expect(seen.withLock { $0 } == [["socks"], ["socks", "hat"]])
        #expect(classic.withLock { $0 } == 2)
        let relaunched = ValueStore(
            key: "cart", default: Cart(), storage: FileStorage(folder: folder), center: center, watching: .off)
        #expect(relaunched.value.items == ["socks", "hat"])
    }

    @Test func theStubChangesAndPostsLikeTheStore() throws {
        let stub = ValueStore(stub: Cart())
        let seen = Mutex(0)
        let token = stub.observe { _ in seen.withLock { $0 += 1 } }
        defer { token.cancel() }
        try add("socks", to: stub)
        #expect(stub.value.items == ["socks"])
        #expect(seen.withLock { $0 } == 1)
    }

    /// A screen that shows the badge (here `badgeText` under Observation, as a SwiftUI body
    /// reads it) redraws when the stub changes, as it does with the store.
    @Test func aScreenReadingTheStubRedrawsWhenItChanges() throws {
        let stub = ValueStore(stub: Cart())
        let redraws = Mutex(0)
        let shown = withObservationTracking { badgeText(cart: stub) } onChange: { redraws.withLock { $0 += 1 } }
        #expect(shown == "0 in cart")
        try add("socks", to: stub)
        #expect(redraws.withLock { $0 } == 1)
        #expect(badgeText(cart: stub) == "1 in cart")
    }
}

extension String {
    fileprivate func between(_ start: String, _ end: String) -> String? {
        guard let lower = range(of: start)?.upperBound,
              let upper = self[lower...].range(of: end)?.lowerBound else { return nil }
        return String(self[lower..<upper])
    }
}
