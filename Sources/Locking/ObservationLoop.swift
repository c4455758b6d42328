import Observation

/// Follows a value through Swift Observation the way a SwiftUI view does: reads it inside
/// `withObservationTracking` and, from each `onChange`, reads it again, reports it and
/// re-registers — until cancelled.
///
/// ```swift
/// let loop = ObservationLoop({ counter.state }) { count in redraw(count) }
/// counter.update { $0 += 1 }  // redraw(1), on this thread
/// loop.cancel()               // later changes redraw nothing
/// ```
///
/// `onValue` runs inside `onChange`, on the thread that made the change, once per change.
package final class ObservationLoop<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    private let onValue: @Sendable (Value) -> Void
    private let isCancelled = Locked(false)

    /// Starts following `read`.
    package init(_ read: @escaping @Sendable () -> Value, onValue: @escaping @Sendable (Value) -> Void) {
        self.read = read
        self.onValue = onValue
        track()
    }

    /// Stops: the pending `onChange`, if it comes, reports nothing and does not re-register.
    package func cancel() {
        isCancelled.withLock { $0 = true }
    }

    private func track() {
        withObservationTracking {
            _ = read()
        } onChange: { [self] in
            guard !isCancelled.withLock({ $0 }) else { return }
            onValue(read())
            track()
        }
    }
}
