import SingletonStores
import Testing

/// Refuses production reads inside a Swift Testing test: the kit finds this type by its name
/// (`TestGuardLink.guardTypeName`) as soon as a store is first read, so linking
/// SingletonStoresTesting is all it takes. Keep the name and the module in step with that
/// constant.
package enum ProductionStoreGuard: StoreTestGuard {
    package static var refuseProductionRead: @Sendable (Any.Type) -> Bool {
        { key in
            guard let test = Test.current else { return false }
            let text = message(key: String(reflecting: key), test: test)
            Issue.record(Comment(rawValue: text), sourceLocation: test.sourceLocation)
            return true
        }
    }

    /// What went wrong, and the three ways to fix it.
    static func message(key: String, test: Test) -> String {
        let name = test.displayName ?? test.name
        return "The test \(name) read the production store of \(key); tests read stubs unless they say "
            + "otherwise. Override it for this test — .stores { $0[\(key).self] = … } or withStores { … } — "
            + "or use stubs for every store (.stubbedStores); if the test means to use the production "
            + "store, add the .productionStores trait. Its stub was used instead; the production store "
            + "was not touched."
    }
}
