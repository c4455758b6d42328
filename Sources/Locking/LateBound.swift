/// The way from handlers that must exist before their target to that target: a weak reference
/// set once the target is whole, and a memory of news that came before.
///
/// A timer or a file watch is started before the object it serves is initialized (the object
/// owns it, so its handler must not own the object, and a watch started first misses nothing).
/// Its handler reaches the object through a `LateBound`; news that arrives before ``bind(_:)``
/// is remembered, and `bind` says whether the object must catch up on it.
///
/// ```swift
/// let owner = LateBound<Store>()
/// let watch = try storage.watch(forKey: key, .automatic) { owner.targetForNews()?.reload() }
/// let store = Store(watch: watch)          // news that comes meanwhile is remembered
/// if owner.bind(store) { store.reload() }  // news came while the store was being made
/// ```
package final class LateBound<Target: AnyObject & Sendable>: Sendable {
    @usableFromInline struct State {
        @usableFromInline weak var target: Target?
        @usableFromInline var isBound = false
        @usableFromInline var missedNews = false

        @usableFromInline init() {}
    }

    @usableFromInline let state = Locked(State())

    /// A reference with no target yet.
    package init() {}

    /// Sets the target once it is whole; whether news arrived before and must be acted on.
    package func bind(_ target: Target) -> Bool {
        state.withLock { state in
            state.target = target
            state.isBound = true
            return state.missedNews
        }
    }

    /// The target, while it exists; `nil` before ``bind(_:)``. Inlinable, so that a handler
    /// that reaches its target on every tick is specialised for the target's type.
    @inlinable package var target: Target? {
        state.withLock { $0.target }
    }

    /// The target, for news that has just arrived; before ``bind(_:)``, `nil`, and the news is
    /// remembered for `bind` to report.
    package func targetForNews() -> Target? {
        state.withLock { state in
            if !state.isBound { state.missedNews = true }
            return state.target
        }
    }
}
