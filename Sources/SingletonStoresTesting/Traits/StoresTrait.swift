import Testing

/// A test trait that runs a test, or every test of a suite, with some stores replaced.
///
/// Write the overrides where the test is declared instead of wrapping its body in `withStores`:
///
/// ```swift
/// @Test(.stores { $0.gender = GenderStoreStub(isFemale: true, isNilGenderCode: false) })
/// func helpLinkCarriesTheGender() {
///     let url = WebViewLink.help.toURLString(
///         params: [.gender(StoreValues.current.gender)], api: APITargetStoreStub(target: .dev01))
///     #expect(url.hasSuffix("?gender_code=2"))
/// }
///
/// @Suite(.stubbedStores, .strictStores)
/// struct StubbedBoostTests {
///     @Test func noBoostIsRunning() {
///         #expect(!StoreValues.current.boost.isInBoostTime)
///     }
/// }
/// ```
///
/// The overrides apply for the duration of the test — sync or async, including the child tasks
/// it starts — and to nothing else, so tests running in parallel never see each other's stores.
/// Traits compose outside in: a suite's traits first, then the test's own, so the test's value
/// wins for a key both set. On a suite the trait applies to each of its tests (and each case of
/// a parameterized test) separately.
///
/// Create one with ``Testing/Trait/stores(_:)``, ``Testing/Trait/stubbedStores``,
/// ``Testing/Trait/strictStores`` or ``Testing/Trait/productionStores``.
public struct StoresTrait: TestTrait, SuiteTrait, TestScoping {
    private let update: @Sendable (inout StoreValues, Test) throws -> Void

    init(_ update: @escaping @Sendable (inout StoreValues, Test) throws -> Void) {
        self.update = update
    }

    /// Always `true`: on a suite, the trait applies to every test inside it.
    public var isRecursive: Bool { true }

    /// Runs `function` with the trait's store values in effect.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withStores {
            try update(&$0, test)
        } operation: {
            try await function()
        }
    }
}

extension Trait where Self == StoresTrait {
    /// Runs the test (or each test of the suite) with the stores `updateValues` sets.
    ///
    /// ```swift
    /// @Test(.stores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) })
    /// func popupShowsTheBoost() {
    ///     #expect(StoreValues.current.boost.remainingSeconds.formatted(.countdown) == "12:34")
    /// }
    /// ```
    ///
    /// - Parameter updateValues: Changes the store values for the test, as in `withStores`.
    public static func stores(_ updateValues: @escaping @Sendable (inout StoreValues) throws -> Void) -> Self {
        StoresTrait { values, _ in try updateValues(&values) }
    }

    /// Runs the test (or each test of the suite) with every store that has no override reading
    /// its stub: nothing touches a production store, its files or its notifications.
    public static var stubbedStores: Self {
        StoresTrait { values, _ in values.useStubs() }
    }

    /// Lets the test (or each test of the suite) read production stores.
    ///
    /// Inside a test, reading a store that has no override records a test issue and reads the
    /// stub instead — by default, with no trait — so a test that forgot a stub never touches the
    /// user's data folder or the default notification center. A test that means to use a
    /// production store says so:
    ///
    /// ```swift
    /// @Test(.productionStores)
    /// func theAppReadsTheSharedCounter() {
    ///     #expect(StoreValues.current.counter is CounterStore)
    /// }
    /// ```
    ///
    /// The trait calls `StoreValues.allowProductionValues()`; a test's own
    /// `.strictStores` or `forbidProductionValues()`, applied after it, forbids them again.
    public static var productionStores: Self {
        StoresTrait { values, _ in values.allowProductionValues() }
    }

    /// Makes reading any store's production value fail the test, explicitly.
    ///
    /// Inside a test, production reads are refused by default (see ``productionStores``). This
    /// trait says so where the test is declared, and goes further: it forbids them also in code
    /// that re-enters the test's stores outside its task (`withEscapedStores`), and after a
    /// suite's ``productionStores``. A test that forgot to stub a store it reaches gets a test
    /// issue naming the store's key and the test, and reads the stub instead, so it never writes
    /// to the user's data folder or leaks state into tests running beside it. Stores the test
    /// overrides — with ``stores(_:)``, ``stubbedStores`` or `withStores` — read as usual.
    ///
    /// ```swift
    /// @Suite(.strictStores)
    /// struct BoostPopupTests {
    ///     @Test(.stores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) })
    ///     func showsTheTimeLeft() {
    ///         #expect(StoreValues.current.boost.remainingSeconds == 754)  // passes
    ///     }
    ///
    ///     @Test func forgotTheStub() {
    ///         withKnownIssue {  // without it, the test fails: "…BoostTimeManagerKey… was read…"
    ///             #expect(StoreValues.current.boost.remainingSeconds == 0)  // the stub's value
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Other store issues still go to the reporter in effect before the trait. Only reads
    /// through `StoreValues` are checked; code that names a `.shared` instance is not.
    public static var strictStores: Self {
        StoresTrait { values, test in
            values.forbidProductionValues()
            let forward = values.reportIssue
            let testName = test.displayName ?? test.name
            let location = test.sourceLocation
            values.reportIssue = { issue in
                guard case .productionValueForbidden = issue else { return forward(issue) }
                Issue.record("In \(testName): \(issue)", sourceLocation: location)
            }
        }
    }
}
