import SingletonStores
import Testing

/// Runs each test case on a thread of its own instead of the shared cooperative pool.
///
/// For suites whose tests block: they wait for child processes, join threads, poll files or
/// sleep. The pool has one thread per core, so a test that blocks one of them for seconds holds
/// up every test behind it — on a slow machine long enough for their time limits to run out.
/// On its own thread a blocking test only waits for itself.
///
/// ```swift
/// @Suite(.ownThread) struct ChildProcessTests { … }
/// ```
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// A scope for each test case; none for a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test case on a new thread named after the test.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = DedicatedThreadExecutor(name: String(test.name.prefix(15)))
        defer { executor.stop() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test case on a thread of its own: see ``OwnThreadTrait``.
    public static var ownThread: Self { OwnThreadTrait() }
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of suites that could hang — waits on clocks, tasks or child processes — so
    /// a hang fails the test that hangs instead of the whole CI job. Generous: a loaded CI
    /// machine runs a test many times slower than a laptop (the whole suite under the thread
    /// sanitizer, with two other builds running, kept tests waiting for a thread for minutes),
    /// and a test never waits this long to pass.
    public static var hangLimit: Self { .timeLimit(.minutes(15)) }
}

/// Lets each test of a suite read production stores, for the kit's own tests of what a
/// production read does (test targets without SingletonStoresTesting's `.productionStores`).
public struct ProductionStoresAllowedTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// Runs the test with production reads allowed.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withStores {
            $0.allowProductionValues()
        } operation: {
            try await function()
        }
    }
}

extension Trait where Self == ProductionStoresAllowedTrait {
    /// Lets the test read production stores: see ``ProductionStoresAllowedTrait``.
    public static var productionStoresAllowed: Self { ProductionStoresAllowedTrait() }
}
