import SingletonStoresLocking

/// A thread-safe list that handlers and tasks append to and tests read.
package final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    /// An empty recorder.
    package init() {}

    /// Appends one element.
    package func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything appended so far, oldest first.
    package var values: [Element] {
        storage.withLock { $0 }
    }

    /// How many elements were appended.
    package var count: Int {
        storage.withLock { $0.count }
    }
}
