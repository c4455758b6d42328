import Foundation
import SingletonStoresLocking

// Strict by default in tests: how the kit, which cannot import Testing, learns that a production
// read happens inside a Swift Testing test. SingletonStoresTesting declares the one type that
// conforms to `StoreTestGuard`; the kit finds it by its name through the Swift runtime's type
// records (no symbol export, no set-up call), once. A process without SingletonStoresTesting —
// every app — finds nothing, and its reads stay on the fast path.

/// What SingletonStoresTesting tells the registry about the test that is running.
package protocol StoreTestGuard {
    /// Called on a production read that no scope allowed, with the key's type. Inside a test,
    /// records an issue for it — naming the key and the fix — and returns `true`, so that the
    /// stub is read instead; outside any test returns `false` (and costs one task-local read).
    static var refuseProductionRead: @Sendable (_ key: Any.Type) -> Bool { get }
}

/// The registry's link to the test guard, if SingletonStoresTesting is in the process.
package enum TestGuardLink {
    /// The mangled name of `SingletonStoresTesting.ProductionStoreGuard`.
    package static let guardTypeName = "22SingletonStoresTesting20ProductionStoreGuardO"

    // A found guard is kept. Until one is found, a process that looks like a test run (an app
    // hosting an XCTest bundle, which it loads after launch) looks again on guarded reads, at
    // most every tenth of a second, so that a test run without SingletonStoresTesting does not
    // pay for a look-up on every read.
    private struct Lookup {
        var found: (@Sendable (Any.Type) -> Bool)?
        var lastTry: ContinuousClock.Instant?
    }

    private static let lookup = Locked(Lookup())
    private static let retryInterval = Duration.milliseconds(100)

    /// The guard's refusal, looked up by name until found.
    static var installed: (@Sendable (Any.Type) -> Bool)? {
        lookup.withLock { lookup in
            if let found = lookup.found { return found }
            let now = ContinuousClock.now
            if let last = lookup.lastTry, last.duration(to: now) < retryInterval { return nil }
            lookup.lastTry = now
            lookup.found = (_typeByName(guardTypeName) as? any StoreTestGuard.Type)?.refuseProductionRead
            return lookup.found
        }
    }

    /// Whether the process's base values should guard production reads: the guard is linked,
    /// or the process was launched to host tests.
    static var processRunsTests: Bool {
        if installed != nil { return true }
        let environment = ProcessInfo.processInfo.environment
        return ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"].contains {
            environment[$0] != nil
        }
    }
}

extension StoreValues {
    /// The process's base values: the prepared ones, with the test guard under them when the
    /// process runs tests.
    static func processBase() -> StoreValues {
        var values = StorePreparation.process.seal()
        if TestGuardLink.processRunsTests { values.overrides = ScopeMark(.testGuard, next: values.overrides) }
        return values
    }

    /// A production read in a process that runs tests: the stub if the test guard refuses it
    /// (inside a test that allowed no production stores), else the production value.
    @usableFromInline func guardedProductionRead<Key: ProductionStoreKey>(of key: Key.Type) -> Key.Value {
        if let refuse = TestGuardLink.installed, refuse(key) {
            return Key.stubValue
        }
        return Key.productionValue
    }
}
