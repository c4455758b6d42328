import SingletonStoresLocking

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Locked(0)

    func increment() {
        storage.withLock { $0 += 1 }
    }

    var value: Int {
        storage.withLock { $0 }
    }
}
