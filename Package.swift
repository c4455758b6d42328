// swift-tools-version: 6.0
import PackageDescription

// The root package depends on nothing but the toolchain. Benchmarks/ is a package of its own.
let package = Package(
    name: "SingletonStores",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "StoreObservation", targets: ["StoreObservation"]),
        .library(name: "Timers", targets: ["Timers"]),
        .library(name: "Stores", targets: ["Stores"]),
        .library(name: "Automaton", targets: ["Automaton"]),
        .executable(name: "demo-cli", targets: ["demo-cli"]),
    ],
    targets: [
        // Named StoreObservation so it never shadows the toolchain's Observation module.
        .target(name: "StoreObservation", path: "Sources/Observation"),
        .target(name: "Timers"),
        .target(name: "Stores", dependencies: ["StoreObservation", "Timers"]),
        .target(name: "Automaton"),
        .executableTarget(
            name: "demo-cli",
            dependencies: ["Stores", "Timers", "StoreObservation", "Automaton"]
        ),
        // Helper for the two-process persistence test: increments a counter document N times.
        .executableTarget(name: "storage-stress", dependencies: ["Stores"], path: "Tests/StorageStress"),
        .testTarget(name: "StoreObservationTests", dependencies: ["StoreObservation"]),
        .testTarget(name: "TimersTests", dependencies: ["Timers"]),
        .testTarget(name: "StoresTests", dependencies: ["Stores", "StoreObservation", "Timers"]),
        .testTarget(name: "AutomatonTests", dependencies: ["Automaton", "Timers"]),
        .testTarget(name: "DemoCLITests", dependencies: ["demo-cli"]),
    ],
    swiftLanguageModes: [.v6]
)
