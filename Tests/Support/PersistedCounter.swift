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
