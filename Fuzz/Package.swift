// swift-tools-version: 6.0
import PackageDescription

// The fuzz targets of SingletonStores, in a package of their own so that the root package's
// build and dependencies stay as they are. Build and run them with `scripts/fuzz.sh`, which
// passes `-sanitize=fuzzer,address -parse-as-library -enable-testing` (libFuzzer provides
// `main`; `@testable import SingletonStores` reaches the kit's internal document decoding, and
// the countdown's record, `CountdownRecord`).
// See Fuzz/README.md.
// What a document or CLI target links.
let fuzzed: [Target.Dependency] = [
    "FuzzSupport",
    .product(name: "Stores", package: "SingletonStores"),
    .product(name: "Timers", package: "SingletonStores"),
]

let package = Package(
    name: "SingletonStoresFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SingletonStores", path: ".."),
    ],
    targets: [
        // The byte-level helpers every target shares: the library's own document decoding,
        // splitting an input into strings.
        .target(
            name: "FuzzSupport",
            dependencies: ["LibFuzzerDriver", .product(name: "SingletonStores", package: "SingletonStores")]
        ),
        // The declaration of libFuzzer's driver, which each target's `main` calls.
        .target(name: "LibFuzzerDriver"),
        // One executable per parser of outside input. Each defines `LLVMFuzzerTestOneInput`.
        .executableTarget(name: "fuzz-boost", dependencies: fuzzed),
        .executableTarget(name: "fuzz-ledger", dependencies: fuzzed),
        .executableTarget(name: "fuzz-receipts", dependencies: fuzzed),
        .executableTarget(name: "fuzz-profile", dependencies: fuzzed),
        .executableTarget(name: "fuzz-api-target", dependencies: fuzzed),
        .executableTarget(name: "fuzz-launch-variants", dependencies: fuzzed),
        .executableTarget(name: "fuzz-document-file", dependencies: fuzzed),
        // The example flows the CLI replays: Sources/AutomatonExamples links to the root
        // package's AutomatonExamples, which is not a product and so not importable from here.
        // Target names must be unique across packages, hence the other name; fuzz-cli imports it
        // under the name the CLI's sources use.
        .target(
            name: "FuzzAutomatonExamples",
            dependencies: [.product(name: "Automaton", package: "SingletonStores")],
            path: "Sources/AutomatonExamples"
        ),
        // The demo CLI's parser: Sources/fuzz-cli/CLI links to Sources/demo-cli/CLI (an
        // executable target, so not importable) and is compiled into the fuzz binary.
        .executableTarget(
            name: "fuzz-cli",
            dependencies: fuzzed + ["FuzzAutomatonExamples", .product(name: "Automaton", package: "SingletonStores")],
            swiftSettings: [.unsafeFlags(["-module-alias", "AutomatonExamples=FuzzAutomatonExamples"])]
        ),
        .executableTarget(
            name: "fuzz-transition-table",
            dependencies: ["FuzzSupport", .product(name: "Automaton", package: "SingletonStores")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
