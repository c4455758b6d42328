import SingletonStoresLocking

/// What a SwiftUI view does with a store, without SwiftUI: an ``ObservationLoop`` that keeps
/// the value read at each `onChange`.
///
/// ```swift
/// let tracked = TrackedValues { store.profile.nickname }
/// try store.setNickname("Aki")
/// tracked.values   // ["Aki"]: one onChange, which read the new value
/// ```
package final class TrackedValues<Value: Sendable>: Sendable {
    private let seen = Recorder<Value>()
    private let loop: ObservationLoop<Value>

    /// Starts tracking `read`.
    ///
    /// - Parameters:
    ///   - read: The read a view's `body` would make.
    ///   - onValue: Called from each `onChange` with the value read there; it may write to the
    ///     store it observes.
    package init(_ read: @escaping @Sendable () -> Value, onValue: (@Sendable (Value) -> Void)? = nil) {
        let seen = self.seen
        loop = ObservationLoop(read) { value in
            seen.append(value)
            onValue?(value)
        }
    }

    /// The value read at each `onChange`, oldest first: one entry per `onChange` call.
    package var values: [Value] { seen.values }
}
