import Observation
import SingletonStoresLocking

/// What a SwiftUI view does with a store, without SwiftUI: reads a value inside
/// `withObservationTracking`, and from each `onChange` reads it again and re-registers.
///
/// ```swift
/// let tracked = TrackedValues { store.profile.nickname }
/// try store.setNickname("Aki")
/// tracked.values   // ["Aki"]: one onChange, which read the new value
/// ```
package final class TrackedValues<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    private let onValue: (@Sendable (Value) -> Void)?
    private let seen = Locked<[Value]>([])

    /// Starts tracking `read`.
    ///
    /// - Parameters:
    ///   - read: The read a view's `body` would make.
    ///   - onValue: Called from each `onChange` with the value read there, before
    ///     re-registering; it may write to the store it observes.
    package init(_ read: @escaping @Sendable () -> Value, onValue: (@Sendable (Value) -> Void)? = nil) {
        self.read = read
        self.onValue = onValue
        track()
    }

    /// The value read at each `onChange`, oldest first: one entry per `onChange` call.
    package var values: [Value] { seen.withLock { $0 } }

    private func track() {
        withObservationTracking { _ = read() } onChange: { [self] in
            let value = read()
            seen.withLock { $0.append(value) }
            onValue?(value)
            track()
        }
    }
}
