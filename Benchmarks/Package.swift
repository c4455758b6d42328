// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of SingletonStores, in a package of their own so that the root package keeps
// depending on nothing but the toolchain. Peers are pinned to exact versions so that every run
// compares against the same code. See BENCHMARKS.md at the repository root.
let package = Package(
    name: "SingletonStoresBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "SingletonStores", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // What the benchmarks measure: a benchmark store on StoreCore and the peers' equivalents.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "SingletonStores", package: "SingletonStores"),
                .product(name: "StoreObservation", package: "SingletonStores"),
                .product(name: "Timers", package: "SingletonStores"),
                .product(name: "Automaton", package: "SingletonStores"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        // One operation in a loop, without the harness: for callgrind and quick checks.
        .executableTarget(name: "bench-probe", dependencies: ["BenchmarkSupport"]),
        // Countdown accuracy on the real clock (idle and with a busy core).
        .executableTarget(name: "countdown-accuracy", dependencies: ["BenchmarkSupport"]),
        // Prints the comparison table from one run's exports.
        .executableTarget(name: "benchmark-table", dependencies: ["BenchmarkSupport"]),
        // The ordo-one/benchmark suite: `swift package benchmark` runs it.
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
