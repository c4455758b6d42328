// swift-tools-version: 6.1
import PackageDescription

// SingletonStores on PostgreSQL: `PostgresStorage`, an `AsyncStoreStorage` whose documents are
// rows of one table, locked across machines and followed with LISTEN/NOTIFY. A package of its own,
// so that the root package keeps depending on nothing but the toolchain.
let package = Package(
    name: "SingletonStoresPostgres",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "SingletonStoresPostgres", targets: ["SingletonStoresPostgres"]),
        .executable(name: "demo-postgres", targets: ["demo-postgres"]),
    ],
    dependencies: [
        .package(name: "SingletonStores", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .target(
            name: "SingletonStoresPostgres",
            dependencies: [
                .product(name: "SingletonStores", package: "SingletonStores"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "demo-postgres",
            dependencies: [
                "SingletonStoresPostgres",
                .product(name: "SingletonStores", package: "SingletonStores"),
                .product(name: "Stores", package: "SingletonStores"),
                .product(name: "Timers", package: "SingletonStores"),
            ]),
        // What a store on PostgreSQL costs beside bare statements (BENCHMARKS.md, "PostgreSQL").
        .executableTarget(
            name: "postgres-benchmarks",
            dependencies: [
                "SingletonStoresPostgres",
                .product(name: "SingletonStores", package: "SingletonStores"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "SingletonStoresPostgresTests",
            dependencies: [
                "SingletonStoresPostgres",
                .product(name: "SingletonStores", package: "SingletonStores"),
                .product(name: "SingletonStoresTesting", package: "SingletonStores"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The article's ServiceGroup example (ArticleSnippets.swift).
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
