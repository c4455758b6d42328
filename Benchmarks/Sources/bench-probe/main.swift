import BenchmarkSupport
import Foundation
import Stores

// Runs one operation in a loop, with no harness around it: the program to give to
// `valgrind --tool=callgrind` (instruction counts are repeatable where wall-clock time is not).
//
//   bench-probe <operation> [count]
//
// Operations: read, read-limit, read-override, read-limit-override, read-anyobject,
// read-override-anyobject, read-cast, scope, scope-limit, notify<N>, notify<N>-raw,
// hour (a one-hour countdown on the manual clock).

let arguments = CommandLine.arguments.dropFirst()
let operation = arguments.first ?? "read"
let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000_000

func loop(_ body: () -> Void) {
    let start = ContinuousClock.now
    for _ in 0..<count { body() }
    let elapsed = ContinuousClock.now - start
    let nanoseconds = Double(elapsed.components.seconds) * 1e9
        + Double(elapsed.components.attoseconds) / 1e9
    print("\(operation): \(count) operations, \(nanoseconds / Double(count)) ns each")
}

// The operations run in a nonisolated function, called synchronously so that they stay on the
// main thread (valgrind follows the program there). Closures written in top-level code would be
// isolated to the main actor instead, and some calls would then check the executor on every
// operation: that check once added about 95 instructions to `scope-limit` alone.
nonisolated func probe() {
    switch operation {
    case "read":
        loop { consume(readThroughRegistry()) }
    case "read-anyobject":
        loop { consume(readObjectThroughRegistry()) }
    case "read-override-anyobject":
        withStores { $0[BenchObjectStoreKey.self] = BenchStoreStub() } operation: {
            loop { consume(readObjectThroughRegistry()) }
        }
    case "read-limit":
        loop { consume(Limit.read()) }
    case "read-override":
        withStores { $0[BenchStoreKey.self] = BenchStoreStub() } operation: {
            loop { consume(readThroughRegistry()) }
        }
    case "read-limit-override":
        Limit.$current.withValue(Limit.Values(override: LimitStore(value: 42))) {
            loop { consume(Limit.read()) }
        }
    case "read-cast":
        // What a read would cost if the registry kept the override type-erased (as `Any`, which
        // needs no allocation) and cast it back to the contract: the design BENCHMARKS.md rejects.
        let erased: Any = BenchStoreStub()
        loop { consume((erased as? any BenchStoreContract)?.value ?? -1) }
    case "scope":
        let stub = BenchStoreStub()
        loop { withStores { $0[BenchStoreKey.self] = stub } operation: { consume(0) } }
    case "scope-limit":
        let stub = LimitStore(value: 42)
        loop { Limit.$current.withValue(Limit.Values(override: stub)) { consume(0) } }
    case let name where name.hasPrefix("notify"):
        let spec = name.dropFirst("notify".count)
        let isRaw = spec.hasSuffix("-raw")
        let observers = Int(isRaw ? spec.dropLast(4) : spec) ?? 1
        if isRaw {
            let fixture = RawNotify(observers: observers)
            loop { fixture.mutate() }
        } else {
            let fixture = OursNotify(observers: observers)
            loop { fixture.mutate() }
        }
    default:
        print("unknown operation \(operation)")
        exit(2)
    }
}

if operation == "hour" {
    let start = ContinuousClock.now
    let result = await runManualClockHour()
    print("one-hour manual-clock countdown: \(result), \(ContinuousClock.now - start)")
} else {
    probe()
}
