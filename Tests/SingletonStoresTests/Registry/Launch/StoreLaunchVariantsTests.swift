import SingletonStoresTestSupport
import Foundation
import SingletonStores
import SingletonStoresLocking
import Testing

private enum ThemeKey: ProductionStoreKey {
    static var productionValue: String { "system" }
    static var stubValue: String { "stub" }
    static var launchName: String { "theme" }
    static var launchVariants: [String: String] { ["dark": "dark", "light": "light"] }
}

@Suite struct StoreLaunchVariantsTests {
    @Test func bothArgumentSpellingsAreReadAndRemoved() throws {
        let launch = try StoreLaunchVariants(
            arguments: ["app", "--store-variant", "theme=dark", "show", "--store-variant=counter=full", "-v"],
            environment: [:])
        #expect(launch.selections == [.init(key: "theme", variant: "dark"), .init(key: "counter", variant: "full")])
        #expect(launch.remainingArguments == ["app", "show", "-v"])
        #expect(launch.variant(for: ThemeKey.self) == "dark")
        #expect(launch.variant(for: CounterKey.self) == nil, "CounterKey's launch name is its type name")
    }

    @Test func theEnvironmentIsReadAndArgumentsWin() throws {
        let launch = try StoreLaunchVariants(
            arguments: ["--store-variant", "theme=light"],
            environment: [StoreLaunchVariants.environmentVariable: "theme=dark, CounterKey=zero"])
        #expect(launch.selections == [.init(key: "theme", variant: "light"), .init(key: "CounterKey", variant: "zero")])
        #expect(launch.remainingArguments.isEmpty)
    }

    @Test func argumentsAfterADoubleDashAreLeftAlone() throws {
        let launch = try StoreLaunchVariants(arguments: ["--", "--store-variant", "theme=dark"], environment: [:])
        #expect(launch.selections.isEmpty)
        #expect(launch.remainingArguments == ["--", "--store-variant", "theme=dark"])
    }

    @Test(arguments: [
        (["--store-variant"], StoreLaunchVariantError.missingValue),
        (["--store-variant", "theme"], .malformed("theme", source: "--store-variant")),
        (["--store-variant=theme="], .malformed("theme=", source: "--store-variant")),
        (["--store-variant", "=dark"], .malformed("=dark", source: "--store-variant")),
        (["--store-variant", "the me=dark"], .malformed("the me=dark", source: "--store-variant")),
        (["--store-variant", "theme=\u{1B}[2J"], .malformed("theme=\u{1B}[2J", source: "--store-variant")),
        (
            ["--store-variant", "theme=" + String(repeating: "d", count: 65)],
            .malformed("theme=" + String(repeating: "d", count: 65), source: "--store-variant")
        ),
    ])
    func badArgumentsAreTypedErrors(arguments: [String], expected: StoreLaunchVariantError) {
        #expect(throws: expected) { try StoreLaunchVariants(arguments: arguments, environment: [:]) }
    }

    @Test func controlCharactersAreEscapedInMessages() {
        let error = StoreLaunchVariantError.malformed("theme=\u{1B}[2J\n\u{9B}", source: "--store-variant")
        #expect(!"\(error)".unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect("\(error)".contains("\\u{1B}[2J\\n\\u{9B}"), "C1 controls too (found by the fuzzer)")
    }

    @Test func moreThanTheLimitOfKeysIsRefused() {
        let many = (0...StoreLaunchVariants.maximumSelections).flatMap { ["--store-variant", "key\($0)=on"] }
        #expect(throws: StoreLaunchVariantError.tooManySelections(limit: 64)) {
            try StoreLaunchVariants(arguments: many, environment: [:])
        }
        let repeated = Array(repeating: ["--store-variant", "theme=dark"], count: 200).flatMap { $0 }
        #expect((try? StoreLaunchVariants(arguments: repeated, environment: [:]))?.selections.count == 1)
    }

    @Test func applyingSetsTheVariantOrNothing() throws {
        let launch = try StoreLaunchVariants(arguments: ["--store-variant", "theme=dark"], environment: [:])
        var values = StoreValues()
        try values.apply(launch, keys: [ThemeKey.self, CounterKey.self])
        #expect(values[ThemeKey.self] == "dark")

        let wrong = try StoreLaunchVariants(
            arguments: ["--store-variant", "theme=dark", "--store-variant", "theme2=x"], environment: [:])
        var untouched = StoreValues()
        #expect(throws: StoreLaunchVariantError.unknownKey("theme2", known: ["CounterKey", "theme"])) {
            try untouched.apply(wrong, keys: [ThemeKey.self, CounterKey.self])
        }
        #expect(untouched[ThemeKey.self] == "system", "nothing applied")

        let unknownVariant = try StoreLaunchVariants(arguments: ["--store-variant", "theme=sepia"], environment: [:])
        #expect(throws: StoreLaunchVariantError.unknownVariant("sepia", key: "theme", known: ["dark", "light"])) {
            try untouched.apply(unknownVariant, keys: [ThemeKey.self])
        }
        #expect(
            "\(StoreLaunchVariantError.unknownVariant("sepia", key: "theme", known: ["dark", "light"]))".contains("dark, light"))
    }
}

/// The launch pattern the documentation shows never ignores a bad variant in silence.
@Suite struct LaunchVariantsReportingTests {
    private static func prepared(arguments: [String], environment: [String: String] = [:]) -> (StoreValues, [StoreIssue]) {
        let issues = Locked<[StoreIssue]>([])
        var values = StoreValues()
        values.reportIssue = { issue in issues.withLock { $0.append(issue) } }
        values.applyLaunchVariants(keys: [ThemeKey.self], arguments: arguments, environment: environment)
        return (values, issues.withLock { $0 })
    }

    @Test func anUnknownVariantIsReportedNamingItAndNothingApplies() {
        let (values, issues) = Self.prepared(arguments: ["app", "--store-variant", "theme=bogus"])
        #expect(issues == [.launchVariantsIgnored(.unknownVariant("bogus", key: "theme", known: ["dark", "light"]))])
        #expect(issues.first.map { "\($0)" }?.contains("\"bogus\"") == true)
        withStores {
            $0 = values
        } operation: {
            withStores {
                $0.allowProductionValues()
            } operation: {
                #expect(StoreValues.current[ThemeKey.self] == "system", "no variant applied")
            }
        }
    }

    @Test func anUnknownKeyOrAMalformedChoiceIsReported() {
        let (_, unknownKey) = Self.prepared(
            arguments: ["app"], environment: [StoreLaunchVariants.environmentVariable: "likes=bogus"])
        #expect(unknownKey == [.launchVariantsIgnored(.unknownKey("likes", known: ["theme"]))])
        let (_, malformed) = Self.prepared(arguments: ["app", "--store-variant", "theme"])
        #expect(malformed == [.launchVariantsIgnored(.malformed("theme", source: StoreLaunchVariants.argumentName))])
    }

    @Test func goodVariantsApplyWithoutAReport() {
        let (values, issues) = Self.prepared(arguments: ["app", "--store-variant=theme=dark"])
        #expect(issues.isEmpty)
        withStores {
            $0 = values
        } operation: {
            #expect(StoreValues.current[ThemeKey.self] == "dark")
        }
    }
}
