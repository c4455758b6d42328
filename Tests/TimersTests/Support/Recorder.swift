import SingletonStoresLocking

/// A thread-safe list that tasks and handlers append to and tests read.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    init() {}

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var values: [Element] {
        storage.withLock { $0 }
    }

    var count: Int {
        storage.withLock { $0.count }
    }
}
