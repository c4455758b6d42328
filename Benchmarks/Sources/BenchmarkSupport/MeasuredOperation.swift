#if BENCHMARK_PEERS
import Dependencies
#endif
import Foundation
import SingletonStores

/// One measured operation, ready to run: `run(n)` performs it `n` times in a loop.
///
/// Whatever the operation needs — a stub, a store with its observers, a Swinject container — is
/// set up when it is made, outside any measurement; an override scope that the reads need is
/// opened inside `run`, once per call, around the whole loop. The harness suite
/// (`StoreBenchmarks`) and `bench-probe` run the same operations from here, so the wall-clock
/// table, the instruction counts and the interleaved ratios all measure the same code.
public struct MeasuredOperation {
    /// Performs the operation `n` times.
    public let run: (Int) -> Void

    /// Wraps a loop that performs the operation the given number of times.
    public init(run: @escaping (Int) -> Void) { self.run = run }

    /// The names `named(_:)` knows, for usage messages.
    public static let names = """
        read, read-limit, read-dependency, read-swinject, read-anyobject, read-override, \
        read-limit-override, read-override-dependency, read-override-swinject, \
        read-override-anyobject, read-cast, scope, scope-limit, scope-dependency, notify<N>, \
        notify<N>-raw, notify<N>-combine, observe1, observe1-limit, persisted, persisted-limit, \
        churn, churn-raw, read-valuestore, read-valuestore-stub, scope-valuestore, scope-valuestore-stub, \
        notify100-valuestore, notify100-valuestore-stub
        """

    /// Makes the operation called `name` (see ``names``), or returns `nil` for an unknown name.
    public static func named(_ name: String) -> MeasuredOperation? {
        switch name {
        case "read":
            return MeasuredOperation { n in for _ in 0..<n { consume(readThroughRegistry()) } }
        case "read-limit":
            return MeasuredOperation { n in for _ in 0..<n { consume(Limit.read()) } }
        #if BENCHMARK_PEERS
        case "read-dependency":
            let model = DependencyModel()
            return MeasuredOperation { n in for _ in 0..<n { consume(model.read()) } }
        case "read-swinject":
            let fixture = SwinjectFixture()
            return MeasuredOperation { n in for _ in 0..<n { consume(fixture.read()) } }
        #endif
        case "read-anyobject":
            return MeasuredOperation { n in for _ in 0..<n { consume(readObjectThroughRegistry()) } }
        case "read-override":
            let stub = BenchStoreStub()
            return MeasuredOperation { n in
                withStores {
                    $0[BenchStoreKey.self] = stub
                } operation: {
                    for _ in 0..<n { consume(readThroughRegistry()) }
                }
            }
        case "read-limit-override":
            let stub = LimitStore(value: 42)
            return MeasuredOperation { n in
                Limit.$current.withValue(Limit.Values(override: stub)) {
                    for _ in 0..<n { consume(Limit.read()) }
                }
            }
        #if BENCHMARK_PEERS
        case "read-override-dependency":
            let stub = BenchStoreStub()
            return MeasuredOperation { n in
                withDependencies {
                    $0.benchStore = stub
                } operation: {
                    let model = DependencyModel()
                    for _ in 0..<n { consume(model.read()) }
                }
            }
        case "read-override-swinject":
            let fixture = SwinjectFixture(stub: BenchStoreStub())
            return MeasuredOperation { n in for _ in 0..<n { consume(fixture.read()) } }
        #endif
        case "read-override-anyobject":
            let stub = BenchStoreStub()
            return MeasuredOperation { n in
                withStores {
                    $0[BenchObjectStoreKey.self] = stub
                } operation: {
                    for _ in 0..<n { consume(readObjectThroughRegistry()) }
                }
            }
        case "read-cast":
            // What a read would cost if the registry kept the override type-erased (as `Any`,
            // which needs no allocation) and cast it back to the contract: the rejected design.
            let erased: Any = BenchStoreStub()
            return MeasuredOperation { n in
                for _ in 0..<n { consume((erased as? any BenchStoreContract)?.value ?? -1) }
            }
        case "scope":
            let stub = BenchStoreStub()
            return MeasuredOperation { n in
                for _ in 0..<n {
                    withStores {
                        $0[BenchStoreKey.self] = stub
                    } operation: {
                        consume(0)
                    }
                }
            }
        case "scope-limit":
            let stub = LimitStore(value: 42)
            return MeasuredOperation { n in
                for _ in 0..<n { Limit.$current.withValue(Limit.Values(override: stub)) { consume(0) } }
            }
        #if BENCHMARK_PEERS
        case "scope-dependency":
            let stub = BenchStoreStub()
            return MeasuredOperation { n in
                for _ in 0..<n {
                    withDependencies {
                        $0.benchStore = stub
                    } operation: {
                        consume(0)
                    }
                }
            }
        #endif
        case "observe1":
            let fixture = OursObserved()
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        case "observe1-limit":
            let fixture = LimitObserved()
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        case "persisted":
            return PersistedFixture.ours()
        case "persisted-limit":
            return PersistedFixture.limit()
        case "churn":
            // One operation: 10,000 observers added, then removed oldest first.
            let store = BenchStore(center: NotificationCenter())
            return MeasuredOperation { n in for _ in 0..<n { ObserverChurn.ours(store, count: Catalog.churnObservers) } }
        case "churn-raw":
            let center = NotificationCenter()
            return MeasuredOperation { n in for _ in 0..<n { ObserverChurn.raw(center, count: Catalog.churnObservers) } }
        case "read-valuestore":
            let fixture = ValueStoreFixture(onDisk: true)
            return MeasuredOperation { n in for _ in 0..<n { consume(fixture.read()) } }
        case "read-valuestore-stub":
            let fixture = ValueStoreFixture(onDisk: false)
            return MeasuredOperation { n in for _ in 0..<n { consume(fixture.read()) } }
        case "scope-valuestore", "scope-valuestore-stub":
            // One override scope that installs a `ValueStore` (made once, outside the loop).
            let fixture = ValueStoreFixture(onDisk: name == "scope-valuestore")
            return MeasuredOperation { n in
                for _ in 0..<n {
                    withStores {
                        $0[BenchValueStoreKey.self] = fixture.store
                    } operation: {
                        consume(0)
                    }
                }
            }
        case "notify100-valuestore", "notify100-valuestore-stub":
            let fixture = ValueStoreFixture(onDisk: name == "notify100-valuestore", observers: 100)
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        case "logged1":
            let fixture = LoggedNotify()
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        case let name where name.hasPrefix("notify"):
            return notify(name.dropFirst("notify".count))
        default:
            return nil
        }
    }

    /// `notify<N>` (ours), `notify<N>-raw` or `notify<N>-combine`, with N observers.
    private static func notify(_ spec: Substring) -> MeasuredOperation? {
        let parts = spec.split(separator: "-", maxSplits: 1)
        guard let first = parts.first, let observers = Int(first) else { return nil }
        switch parts.count == 2 ? String(parts[1]) : "" {
        case "":
            let fixture = OursNotify(observers: observers)
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        case "raw":
            let fixture = RawNotify(observers: observers)
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        #if BENCHMARK_PEERS
        case "combine":
            let fixture = CombineNotify(observers: observers)
            return MeasuredOperation { n in for _ in 0..<n { fixture.mutate() } }
        #endif
        default:
            return nil
        }
    }
}
