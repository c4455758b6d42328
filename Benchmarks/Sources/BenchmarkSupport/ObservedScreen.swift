import Observation
import Synchronization

/// A screen that follows a value through Swift Observation, re-registering after each change:
/// the Observation screen of the energy row (`cost-benchmarks`) and of its probe (`bench-probe
/// energy`).
public final class ObservedScreen<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value
    private let last = Mutex<Value?>(nil)

    /// Starts following `read`.
    public init(_ read: @escaping @Sendable () -> Value) {
        self.read = read
        track()
    }

    private func track() {
        // Re-registers on the changing thread, as the kit's own observation loops do: no hop
        // to another thread, so no wake-up of its own.
        let value = withObservationTracking {
            read()
        } onChange: { [weak self] in
            self?.track()
        }
        last.withLock { $0 = value }
    }
}
