import SingletonStoresLocking

/// The stubs one ``StoreValues/useStubs()`` scope has made: each key's stub is made on its first
/// read and every later read in the scope gets that same instance, so a test that writes to a
/// stub reads its write back. A new scope starts empty.
///
/// Internal: `StoreValues` reads through it.
@usableFromInline final class StubInstances: Sendable {
    private let made = Locked<[ObjectIdentifier: any Sendable]>([:])

    init() {}

    /// The stub for `key` in this scope, made now if this is the key's first read here.
    ///
    /// The key's `stubValue` runs outside the lock (it is the app's code); when two threads
    /// make the first read at once, both see the one stored first.
    @usableFromInline func stub<Key: StoreKey>(for key: Key.Type) -> Key.Value {
        let slot = ObjectIdentifier(key)
        if let existing = made.withLock({ $0[slot] }) as? Key.Value { return existing }
        let fresh = Key.stubValue
        let kept = made.withLock { made -> any Sendable in
            if let earlier = made[slot] { return earlier }
            made[slot] = fresh
            return fresh
        }
        return kept as? Key.Value ?? fresh
    }
}
