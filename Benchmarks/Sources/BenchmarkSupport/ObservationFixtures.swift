import Foundation
import Observation
import SingletonStores

/// One committed change of a `StoreCore` store seen by one `withObservationTracking` observer
/// that reads the store and re-registers from its `onChange`, as a SwiftUI view does.
public final class OursObserved: @unchecked Sendable {
    // @unchecked: set up once, then used from the one thread that runs the benchmark.
    public let store = BenchStore(center: NotificationCenter())

    public init() { track() }

    private func track() {
        withObservationTracking {
            consume(store.value)
        } onChange: { [self] in
            track()
        }
    }

    @inline(__always)
    public func mutate() { store.increment() }
}

/// The limit: a plain `@Observable` class whose property write is seen by the same kind of
/// re-registering observer. No lock, no notification.
@Observable
public final class PlainObservableCounter: @unchecked Sendable {
    public var count = 0
    public init() {}
}

/// Writes `PlainObservableCounter.count` under one re-registering observer.
public final class LimitObserved: @unchecked Sendable {
    public let model = PlainObservableCounter()

    public init() { track() }

    private func track() {
        withObservationTracking {
            consume(model.count)
        } onChange: { [self] in
            track()
        }
    }

    @inline(__always)
    public func mutate() { model.count += 1 }
}
