import Foundation
import StoreObservation
import SingletonStores

/// The store every benchmark reads and mutates: a counter with seed 004's shape — a contract,
/// a production class on `StoreCore`, a stub, and a registry key.
public protocol BenchStoreContract: Sendable {
    /// The current count.
    var value: Int { get }
    /// Adds one to the count.
    func increment()
}

extension NotificationChannel where Payload == StoreChange<Int> {
    /// The channel the benchmark store posts on.
    public static let benchStore = NotificationChannel("BenchStore.changed")
}

/// The production benchmark store: state in a `StoreCore`, changes posted on its own center.
public final class BenchStore: BenchStoreContract {
    /// The production singleton, read through ``BenchStoreKey``.
    public static let shared = BenchStore(center: NotificationCenter())

    /// The core; benchmarks observe it directly.
    public let core: StoreCore<Int>

    /// Creates a store posting to `center`.
    public init(center: NotificationCenter) {
        core = StoreCore(0, channel: .benchStore, center: center)
    }

    public var value: Int { core.state }
    public func increment() { core.update { $0 += 1 } }
}

/// The stand-in a test would install: an in-memory counter behind the same kind of lock, so
/// that reads inside an override cost what a real store's would.
public final class BenchStoreStub: BenchStoreContract {
    private let core: StoreCore<Int>

    /// Creates a stub holding `value`.
    public init(value: Int = 42) {
        core = StoreCore(value, channel: .benchStore, center: NotificationCenter())
    }

    public var value: Int { core.state }
    public func increment() { core.update { $0 += 1 } }
}

/// The registry key of the benchmark store.
public enum BenchStoreKey: ProductionStoreKey {
    public static var productionValue: any BenchStoreContract { BenchStore.shared }
    public static var stubValue: any BenchStoreContract { BenchStoreStub() }
}

/// Reads the benchmark store through the registry, as app code does.
@inline(__always)
public func readThroughRegistry() -> Int {
    StoreValues.current[BenchStoreKey.self].value
}

/// Consumes a value so the optimiser cannot remove the work that produced it.
@_optimize(none)
public func consume<T>(_ value: T) {}

/// The benchmark store's contract declared `AnyObject`: what a read costs when every
/// implementation of a contract is a class. The registry then hands out a class existential
/// (one reference to retain) instead of an opaque one (a value-witness copy). Only `bench-probe`
/// uses it (`read-anyobject`, `read-override-anyobject`).
public protocol BenchObjectStoreContract: AnyObject, Sendable {
    /// The current count.
    var value: Int { get }
}

extension BenchStore: BenchObjectStoreContract {}
extension BenchStoreStub: BenchObjectStoreContract {}

/// The registry key of the class-bound contract.
public enum BenchObjectStoreKey: ProductionStoreKey {
    public static var productionValue: any BenchObjectStoreContract { BenchStore.shared }
    public static var stubValue: any BenchObjectStoreContract { BenchStoreStub() }
}

/// Reads the benchmark store through the registry under its class-bound contract.
@inline(__always)
public func readObjectThroughRegistry() -> Int {
    StoreValues.current[BenchObjectStoreKey.self].value
}
