// swift-tools-version: 6.0
import PackageDescription

// The root package depends on nothing but the toolchain. Benchmarks/ is a package of its own.
let package = Package(
    name: "SingletonStores",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "SingletonStores", targets: ["SingletonStores"]),
        .library(name: "StoreObservation", targets: ["StoreObservation"]),
        .library(name: "Timers", targets: ["Timers"]),
        .library(name: "SingletonStoresTesting", targets: ["SingletonStoresTesting"]),
        .library(name: "Stores", targets: ["Stores"]),
        .library(name: "Automaton", targets: ["Automaton"]),
        .executable(name: "demo-cli", targets: ["demo-cli"]),
    ],
    targets: [
        // Internal (no product): the Mutex wrapper every module keeps its state in, so that the
        // thread sanitizer can see the lock hand-overs, and the standard-error writer the
        // default issue reporters share. Not importable by clients.
        .target(name: "SingletonStoresLocking", path: "Sources/Locking"),
        // Internal (no product): a file's identity, kind, owner, links and size without its
        // times, whose look-up would make the next write of a document also write its inode.
        .target(name: "SingletonStoresFileInfo", path: "Sources/FileInfo"),
        // Named StoreObservation so it never shadows the toolchain's Observation module.
        .target(name: "StoreObservation", dependencies: ["SingletonStoresLocking"], path: "Sources/Observation"),
        .target(name: "Timers", dependencies: ["SingletonStoresLocking"]),
        // The kit an app builds its own stores with: cores, the registry, persistence.
        .target(
            name: "SingletonStores",
            dependencies: ["SingletonStoresLocking", "SingletonStoresFileInfo", "StoreObservation", "Timers"]),
        // Test support for apps: traits, strict mode, change checks, parity specs. The only
        // library that imports Testing; link it from test targets only.
        .target(
            name: "SingletonStoresTesting",
            dependencies: ["SingletonStores", "StoreObservation", "SingletonStoresLocking"]),
        // The built-in stores, built with the kit.
        .target(name: "Stores", dependencies: ["SingletonStores", "SingletonStoresLocking", "StoreObservation", "Timers"]),
        .target(name: "Automaton", dependencies: ["SingletonStoresLocking"]),
        // The registration and login flows, for demo-cli and the tests. Not a product.
        .target(name: "AutomatonExamples", dependencies: ["Automaton"]),
        .executableTarget(
            name: "demo-cli",
            dependencies: [
                "Stores", "SingletonStores", "Timers", "StoreObservation", "Automaton", "AutomatonExamples",
                "SingletonStoresLocking",
            ]
        ),
        // Test helper: a second process for the cross-process storage tests. Not a product.
        .executableTarget(
            name: "storage-stress",
            dependencies: ["SingletonStores", "Stores", "SingletonStoresTestSupport", "StorageStressHeapInUse"],
            path: "Tests/StorageStress"),
        // What the allocator has handed out, for `storage-stress watch-churn`. Not a product.
        .target(name: "StorageStressHeapInUse", path: "Tests/HeapInUse"),
        // Internal helpers shared by the test targets (recorder, temporary folders, built
        // executables, manual-clock waits). Not a product.
        .target(
            name: "SingletonStoresTestSupport", dependencies: ["SingletonStoresLocking", "Timers", "SingletonStores"],
            path: "Tests/Support"),
        .testTarget(name: "SingletonStoresLockingTests", dependencies: ["SingletonStoresLocking"], path: "Tests/LockingTests"),
        .testTarget(name: "StoreObservationTests", dependencies: ["StoreObservation", "SingletonStoresLocking", "SingletonStoresTestSupport"]),
        .testTarget(name: "TimersTests", dependencies: ["Timers", "SingletonStoresLocking", "SingletonStoresTestSupport"]),
        .testTarget(
            name: "SingletonStoresTests", dependencies: [
                "SingletonStores", "StoreObservation", "SingletonStoresLocking", "SingletonStoresTestSupport", "Timers",
            ]),
        .testTarget(
            name: "SingletonStoresTestingTests", dependencies: [
                "SingletonStoresTesting", "SingletonStores", "StoreObservation", "Timers", "SingletonStoresLocking",
                "SingletonStoresTestSupport",
            ]),
        // An app of its own, written against the kit only (no built-in Stores): its own countdown,
        // stubs and documents, and the article "A countdown of your own".
        .testTarget(name: "OwnAppTests", dependencies: ["SingletonStores", "Timers", "SingletonStoresTesting"]),
        // The README's quick start, verbatim: proves the kit is usable on its own.
        .testTarget(name: "QuickStartTests", dependencies: ["SingletonStores"]),
        .testTarget(
            name: "StoresTests", dependencies: [
                "Stores", "SingletonStores", "SingletonStoresTesting", "StoreObservation", "Timers",
                "SingletonStoresLocking", "SingletonStoresTestSupport",
            ]),
        .testTarget(name: "AutomatonTests", dependencies: ["Automaton", "AutomatonExamples", "Timers", "SingletonStoresLocking", "SingletonStoresTestSupport"]),
        .testTarget(
            name: "AutomatonExamplesTests",
            dependencies: ["AutomatonExamples", "Automaton", "Timers", "SingletonStoresTestSupport"]),
        .testTarget(name: "DemoCLITests", dependencies: ["demo-cli", "SingletonStoresTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
