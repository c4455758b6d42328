// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of SingletonStores, in a package of their own so that the root package keeps
// depending on nothing but the toolchain. Peers are pinned to exact versions so that every run
// compares against the same code. See BENCHMARKS.md at the repository root.
//
// With BENCHMARKS_WITHOUT_PEERS=1 in the environment (`run-benchmarks.sh --no-peers` sets it),
// the package depends on nothing but SingletonStores: no peers and no ordo-one/benchmark
// harness, for a machine that cannot fetch packages. Every row that compares ours with the
// limit or measures a cost of its own still runs; the peer columns say "not built".
let withPeers = Context.environment["BENCHMARKS_WITHOUT_PEERS"] == nil

let ours: [Target.Dependency] = [
    .product(name: "SingletonStores", package: "SingletonStores"),
    .product(name: "StoreObservation", package: "SingletonStores"),
    .product(name: "Timers", package: "SingletonStores"),
    .product(name: "Automaton", package: "SingletonStores"),
    .product(name: "Stores", package: "SingletonStores"),
]
let peers: [Target.Dependency] = [
    .product(name: "Dependencies", package: "swift-dependencies"),
    .product(name: "Swinject", package: "Swinject"),
    .product(name: "OpenCombine", package: "OpenCombine"),
    .product(name: "GRDB", package: "GRDB.swift"),
]

var targets: [Target] = [
    // What the benchmarks measure: a benchmark store on StoreCore and the peers' equivalents.
    .target(
        name: "BenchmarkSupport",
        dependencies: ours + (withPeers ? peers : []),
        swiftSettings: withPeers ? [.define("BENCHMARK_PEERS")] : []
    ),
    // One operation in a loop, without the harness: for callgrind, quick checks and the
    // interleaved ratios of the targets.
    .executableTarget(name: "bench-probe", dependencies: ["BenchmarkSupport"]),
    // Countdown accuracy on the real clock (idle and with a busy core).
    .executableTarget(name: "countdown-accuracy", dependencies: ["BenchmarkSupport"]),
    // The costs an app feels: persisted updates, cross-process latency, a countdown's CPU time
    // and wake-ups, idle watchers. Starts copies of itself for the other processes.
    .executableTarget(name: "cost-benchmarks", dependencies: ["BenchmarkSupport"]),
    // Prints the comparison table from one run's exports.
    .executableTarget(name: "benchmark-table", dependencies: ["BenchmarkSupport"]),
]
if withPeers {
    // The ordo-one/benchmark suite: `swift package benchmark` runs it.
    targets.append(
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}

let package = Package(
    name: "SingletonStoresBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "SingletonStores", path: "..")]
        + (withPeers
            ? [
                .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
                .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
                .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
                .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
                .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
            ] : []),
    targets: targets,
    swiftLanguageModes: [.v6]
)
