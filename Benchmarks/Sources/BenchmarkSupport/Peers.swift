// The peers, compiled only when the package is built with them (see Package.swift).
#if BENCHMARK_PEERS
import Dependencies
import Foundation
import OpenCombine
import Swinject

// MARK: - swift-dependencies

private enum BenchStoreDependencyKey: DependencyKey {
    static let liveValue: any BenchStoreContract = BenchStore.shared
    static let testValue: any BenchStoreContract = BenchStoreStub()
}

extension DependencyValues {
    /// The benchmark store as a swift-dependencies dependency.
    public var benchStore: any BenchStoreContract {
        get { self[BenchStoreDependencyKey.self] }
        set { self[BenchStoreDependencyKey.self] = newValue }
    }
}

/// A model holding the store the swift-dependencies way; each `read()` is one `@Dependency`
/// property access (the lookup happens on every access).
public struct DependencyModel {
    @Dependency(\.benchStore) private var store
    public init() {}
    @inline(__always)
    public func read() -> Int { store.value }
}

// MARK: - Swinject

/// A Swinject container with the benchmark store registered as a container-scoped singleton.
public final class SwinjectFixture: @unchecked Sendable {
    public let container: Container

    /// Registers the production store in a root container, or `stub` in a child container
    /// of it — Swinject's way to override a registration for a scope.
    public init(stub: (any BenchStoreContract)? = nil) {
        let root = Container()
        root.register((any BenchStoreContract).self) { _ in BenchStore.shared }
            .inObjectScope(.container)
        if let stub {
            let child = Container(parent: root)
            child.register((any BenchStoreContract).self) { _ in stub }.inObjectScope(.container)
            container = child
        } else {
            container = root
        }
    }

    /// One `resolve` and a read of the resolved store.
    @inline(__always)
    public func read() -> Int {
        container.resolve((any BenchStoreContract).self)?.value ?? -1
    }
}
#endif
