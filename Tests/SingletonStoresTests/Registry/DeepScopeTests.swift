import Foundation
import SingletonStores
import Testing

/// From outside: `withStores` nested 10,000 deep in async code did not finish in 60 s. Each
/// scope replaces the key it sets rather than shadowing it, so a scope's work does not grow with
/// the depth; what nesting costs is the task-local entry Swift keeps per scope. These run to
/// the bottom and back at 10,000 levels, in the three shapes async code nests in.
@Suite("withStores nested deep")
struct DeepScopeTests {
    private enum DepthKey: StoreKey { static let stubValue = -1 }

    private static let depth = 10_000

    private static func nested(_ level: Int) async -> Int {
        if level == 0 { return StoreValues.current[DepthKey.self] }
        return await withStores {
            $0[DepthKey.self] = level
        } operation: {
            await nested(level - 1)
        }
    }

    private static func nestedInTasks(_ level: Int) async -> Int {
        if level == 0 { return StoreValues.current[DepthKey.self] }
        return await withStores {
            $0[DepthKey.self] = level
        } operation: {
            await Task { await nestedInTasks(level - 1) }.value
        }
    }

    private static func nestedInChildTasks(_ level: Int) async -> Int {
        if level == 0 { return StoreValues.current[DepthKey.self] }
        return await withStores {
            $0[DepthKey.self] = level
        } operation: {
            async let inner = nestedInChildTasks(level - 1)
            let value = await inner
            return StoreValues.current[DepthKey.self] == level ? value : -2
        }
    }

    private static func nestedSynchronously(_ level: Int) -> Int {
        if level == 0 { return StoreValues.current[DepthKey.self] }
        return withStores {
            $0[DepthKey.self] = level
        } operation: {
            nestedSynchronously(level - 1)
        }
    }

    @Test func tenThousandAsyncScopesSeeTheInnermostValue() async {
        #expect(await Self.nested(Self.depth) == 1)
        #expect(StoreValues.current[DepthKey.self] == -1, "every scope was undone")
    }

    @Test func tenThousandScopesEachInATaskOfItsOwn() async {
        #expect(await Self.nestedInTasks(Self.depth) == 1)
    }

    @Test func tenThousandScopesEachInAChildTask() async {
        #expect(await Self.nestedInChildTasks(Self.depth) == 1)
    }

    /// Synchronous scopes nest on the thread's stack; a thousand fit any thread's stack (see
    /// the "Testing with stores" article for the limit).
    @Test func aThousandSynchronousScopes() {
        #expect(Self.nestedSynchronously(1_000) == 1)
    }
}
