import Foundation
import SingletonStores
import Synchronization
import Testing

/// A value kept by the stub scope tests below; its stub is a new store on every `stubValue` read.
private struct Basket: Codable, Sendable, Equatable { var items: [String] = [] }

private enum BasketKey: ProductionStoreKey {
    static let productionValue = ValueStore(key: "basket", default: Basket(), storage: InMemoryStorage())
    static var stubValue: ValueStore<Basket> { ValueStore(stub: Basket()) }
}

/// Counts how many stubs a key made, to show each scope makes its own and only one.
private enum CountedStubKey: StoreKey {
    static let made = Mutex(0)
    static var stubValue: ValueStore<Int> {
        made.withLock { $0 += 1 }
        return ValueStore(stub: 0)
    }
}

extension StoreValues {
    fileprivate var basket: ValueStore<Basket> {
        get { self[BasketKey.self] }
        set { self[BasketKey.self] = newValue }
    }
}

@Suite struct StubInstancesTests {
    @Test func aStubKeepsWhatTheScopeWroteAndIsOneInstance() throws {
        try withStores {
            $0.useStubs()
        } operation: {
            #expect(StoreValues.current.basket === StoreValues.current.basket)
            try StoreValues.current.basket.update { $0.items.append("tea") }
            #expect(StoreValues.current.basket.value.items == ["tea"])
        }
    }

    @Test func theNextScopeStartsWithAFreshStub() throws {
        let first = try withStores {
            $0.useStubs()
        } operation: { () throws -> ValueStore<Basket> in
            try StoreValues.current.basket.update { $0.items.append("tea") }
            return StoreValues.current.basket
        }
        withStores {
            $0.useStubs()
        } operation: {
            #expect(StoreValues.current.basket !== first)
            #expect(StoreValues.current.basket.value.items.isEmpty)
        }
    }

    @Test func nestedScopesTasksAndOverridesOfOtherKeysShareTheScopesStub() async throws {
        try await withStores {
            $0.useStubs()
        } operation: {
            let outer = StoreValues.current.basket
            try outer.update { $0.items.append("tea") }
            // A nested scope that overrides another key (and so relinks nothing of ours), one that
            // removes an override (which copies the marks below it), and a child task.
            let nested = withStores {
                $0[CountedStubKey.self] = ValueStore(stub: 1)
            } operation: {
                StoreValues.current.basket
            }
            let afterRemoval = withStores {
                $0[CountedStubKey.self] = ValueStore(stub: 1)
            } operation: {
                withStores {
                    $0.removeOverride(for: CountedStubKey.self)
                } operation: {
                    StoreValues.current.basket
                }
            }
            let inTask = await Task { StoreValues.current.basket }.value
            #expect(nested === outer)
            #expect(afterRemoval === outer)
            #expect(inTask === outer)
            #expect(inTask.value.items == ["tea"])
        }
    }

    @Test func eachKeysStubIsMadeOncePerScopeAndConcurrentFirstReadsAgree() async {
        let before = CountedStubKey.made.withLock { $0 }
        withStores {
            $0.useStubs()
        } operation: {
            for _ in 0..<5 { _ = StoreValues.current[CountedStubKey.self] }
        }
        #expect(CountedStubKey.made.withLock { $0 } - before == 1, "five reads in one scope make one stub")

        let identities = await withStores {
            $0.useStubs()
        } operation: {
            await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { ObjectIdentifier(StoreValues.current[CountedStubKey.self]) } }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
        }
        #expect(identities.count == 1, "first reads racing on eight tasks all get the one stub kept")
    }
}
