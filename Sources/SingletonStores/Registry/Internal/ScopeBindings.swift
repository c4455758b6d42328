import Synchronization

/// Whether any scope has bound `StoreValues.taskLocal` yet, and the base values it holds until
/// then.
///
/// The task-local's default — what a task outside any `withStores` reads — is the process's
/// base values: what `prepareStores` set, captured (and sealed against later preparation) when
/// this is first used; in a process that runs tests, the test guard's mark sits under them (see
/// `processBase()`). Until some scope binds values other than these, every task of the process
/// would read the base from the task-local, so `current` returns it without asking the
/// concurrency runtime: an app that opens no scope (production code, outside tests and
/// previews) reads its stores with no task-local look-up at all.
///
/// Every binding goes through ``willBind(_:)`` first, on the binding thread, so a read that could
/// see the binding — on that thread, in a task it starts, in a closure `EscapedStores` re-enters
/// (which binds again) — runs after the flag was set on its own thread or before a task
/// creation, which orders it. Binding the base values themselves sets nothing: reading them
/// from the task-local or not is the same.
@usableFromInline final class ScopeBindings: Sendable {
    /// The values a task reads outside any scope: the task-local's default.
    @usableFromInline let base: StoreValues
    /// Whether a scope has bound values other than ``base``; once set, never cleared.
    @usableFromInline let hasBound = Atomic<Bool>(false)

    init() {
        base = StoreValues.processBase()
    }

    /// The values in effect for the current task.
    @inlinable var current: StoreValues {
        hasBound.load(ordering: .relaxed) ? StoreValues.taskLocal.get() : base
    }

    /// Records that `values` are about to be bound; call it right before every `withValue`.
    @inlinable func willBind(_ values: StoreValues) {
        if !hasBound.load(ordering: .relaxed), values.overrides !== base.overrides {
            hasBound.store(true, ordering: .relaxed)
        }
    }
}
