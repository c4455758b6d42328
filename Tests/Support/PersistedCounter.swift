import SingletonStores

/// A small store value for the persistence tests and the `storage-stress` helper: the
/// `counter` document they write, read and count.
package struct PersistedCounter: Codable, Sendable, Equatable {
    package var count: Int
    package var label: String

    package init(count: Int = 0, label: String = "counter") {
        self.count = count
        self.label = label
    }
}

/// The `counter` document as an earlier version of the tests' app stored it, `{"tally": 3}`:
/// value version 1 of ``PersistedCounter``.
package struct PersistedCounterVersion1: Codable, Sendable, Equatable {
    package var tally: Int

    package init(tally: Int) {
        self.tally = tally
    }
}

extension PersistedCounter {
    /// The migrations of the `counter` document: version 2, migrated from a tally.
    package static let migrations = DocumentMigrations<PersistedCounter>(version: 2)
        .step(from: 1) { (old: PersistedCounterVersion1) in PersistedCounter(count: old.tally, label: "migrated") }
}
