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

protocol CartContract: Sendable { var itemCount: Int { get }; func add() }

extension NotificationChannel where Payload == StoreChange<Int> {
    static let cart = NotificationChannel("CartStore.changed")
}

final class CartStore: CartContract {
    static let shared = CartStore()
    let core: StoreCore<Int>  // locked state; each change posted after unlocking
    init(center: NotificationCenter = .default) { core = StoreCore(0, channel: .cart, center: center) }
    var itemCount: Int { core.state }
    func add() { core.update { $0 += 1 } }
}

final class CartStub: CartContract {  // changes, posts and redraws views like the store
    let stub: StoreStub<Int>; init(itemCount: Int) { stub = StoreStub(itemCount, channel: .cart) }
    var itemCount: Int { stub.state }; func add() { stub.update { $0 += 1 } }
}

enum CartKey: ProductionStoreKey {  // registers the store: production by default
    static var productionValue: any CartContract { CartStore.shared }
    static var stubValue: any CartContract { CartStub(itemCount: 0) }
}
extension StoreValues {
    var cart: any CartContract { get { self[CartKey.self] } set { self[CartKey.self] = newValue } }
}

func badgeText(cart: any CartContract = StoreValues.current.cart) -> String { "\(cart.itemCount) in cart" }

func watchCart() -> ObservationToken {  // keep the token; drop it to stop observing
    CartStore.shared.core.observe { change in print("cart: \(change.old) → \(change.new)") }
}

@Test func badgeShowsTheStubbedCount() {
    withStores { $0.cart = CartStub(itemCount: 3) } operation: {
        #expect(badgeText() == "3 in cart")
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
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 150, "the README is a front door")
    }

    /// The install snippet is a manifest fragment, so it is checked rather than compiled: every
    /// product it names exists in Package.swift, and it asks for the newest released version.
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
        let version = try #require(install.firstMatch(of: /from: "([0-9]+\.[0-9]+\.[0-9]+)"/)).output.1
        let released = try #require(changelog.firstMatch(of: /## \[([0-9]+\.[0-9]+\.[0-9]+)\]/)).output.1
        #expect(version == released, "the install snippet asks for \(version); the CHANGELOG's newest release is \(released)")
        #expect(install.contains("\"Stores\""), "the snippet says where the built-in stores come from")
    }

    @Test func cartStoreIsObservedAndCounted() {
        let center = NotificationCenter()
        let cart = CartStore(center: center)
        let seen = Mutex<[Int]>([])
        let token = cart.core.observe { change in seen.withLock { $0.append(change.new) } }
        defer { token.cancel() }
        cart.add()
        cart.add()
        #expect(cart.itemCount == 2)
        #expect(seen.withLock { $0 } == [1, 2])
        #expect(badgeText(cart: cart) == "2 in cart")
    }
}

extension ReadmeQuickStartTests {
    /// The README's stub behaves like the store: it changes, posts on its own center, and a
    /// screen that shows it (here `badgeText` under Observation, as a SwiftUI body) redraws.
    @Test func cartStubChangesPostsAndRedrawsTheBadge() {
        let stub = CartStub(itemCount: 1)
        let redraws = Mutex(0)
        let posted = Mutex<[Int]>([])
        let token = stub.stub.observe { change in posted.withLock { $0.append(change.new) } }
        defer { token.cancel() }
        let shown = withObservationTracking { badgeText(cart: stub) } onChange: { redraws.withLock { $0 += 1 } }
        #expect(shown == "1 in cart")
        stub.add()
        #expect(redraws.withLock { $0 } == 1, "the badge reading the stub is invalidated by its change")
        #expect(posted.withLock { $0 } == [2])
        #expect(badgeText(cart: stub) == "2 in cart")
        #expect(stub.stub.center !== NotificationCenter.default, "a stub posts on a center of its own")
    }
}

extension String {
    fileprivate func between(_ start: String, _ end: String) -> String? {
        guard let lower = range(of: start)?.upperBound,
              let upper = self[lower...].range(of: end)?.lowerBound else { return nil }
        return String(self[lower..<upper])
    }
}
