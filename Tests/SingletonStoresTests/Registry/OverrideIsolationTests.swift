import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

@Suite struct OverrideIsolationTests {
    /// 500 concurrent tasks, each in its own scope with a distinct stub, each read only their
    /// own stub — directly, from a child task, and from a task group.
    @Test func fiveHundredConcurrentScopesEachSeeOnlyTheirOwnStub() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for id in 0..<500 {
                group.addTask {
                    await withStores {
                        $0.counter = CounterStub(count: id)
                    } operation: {
                        var wrong = 0
                        await Task.yield()  // let the other scopes interleave
                        if StoreValues.current.counter.count != id { wrong += 1 }
                        async let child = StoreValues.current.counter.count
                        if await child != id { wrong += 1 }
                        let fromGroup = await withTaskGroup(of: Int.self) { inner in
                            for _ in 0..<3 { inner.addTask { StoreValues.current.counter.count } }
                            return await inner.reduce(into: [Int]()) { $0.append($1) }
                        }
                        wrong += fromGroup.filter { $0 != id }.count
                        return wrong
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
