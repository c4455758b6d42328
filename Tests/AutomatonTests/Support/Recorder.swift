import SingletonStoresLocking

/// A thread-safe log that tests read after the code under test has written to it.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var values: [Element] {
        storage.withLock { $0 }
    }
}

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
