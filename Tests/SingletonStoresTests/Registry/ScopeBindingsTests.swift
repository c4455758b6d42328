import SingletonStoresTestSupport
import Foundation
@testable import SingletonStores
import Testing

/// A read outside any scope skips the task-local until a scope binds values other than the
/// process's base; binding the base itself changes nothing.
@Suite struct ScopeBindingsTests {
    @Test func onlyABindingOfOtherValuesTurnsTheTaskLocalReadOn() {
        let bindings = ScopeBindings()
        func hasBound() -> Bool { bindings.hasBound.load(ordering: .relaxed) }
        #expect(!hasBound())
        #expect(bindings.current.overrides === bindings.base.overrides)
        // Re-entering the base, as `EscapedStores` does in an app with no scope: still skipped.
        bindings.willBind(bindings.base)
        #expect(!hasBound())
        var changed = bindings.base
        changed.counter = CounterStub(count: 3)
        bindings.willBind(changed)
        #expect(hasBound())
        bindings.willBind(bindings.base)
        #expect(hasBound(), "once on, it stays on")
    }

    @Test func scopesAndTheTasksTheyStartReadTheirOwnOverrides() async {
        await withStores {
            $0.counter = CounterStub(count: 1)
        } operation: {
            await withStores {
                $0.counter = CounterStub(count: 5)
            } operation: {
                #expect(StoreValues.current.counter.count == 5)
                let child = await Task { StoreValues.current.counter.count }.value
                #expect(child == 5)
            }
            #expect(StoreValues.current.counter.count == 1)
        }
    }
}
