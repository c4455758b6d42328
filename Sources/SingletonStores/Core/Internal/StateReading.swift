/// How a ``PersistentStoreCore`` makes its state from a read of its document, at launch and
/// each time it follows the disk.
///
/// By default the state is the document's value (``document(_:in:)``). A store whose state is
/// derived from the document and from other documents gives its own: the countdown's state is
/// its record merged with the newest grant of the purchases ledger, and the phase it shows.
package struct StateReading<State: Sendable>: Sendable {
    /// Reads the document, given the state in memory (the document's default at launch): the
    /// state to adopt, whether it differs from what memory holds (`isStored`; `false` keeps
    /// the state in memory) and the problem to report. It runs inside the store's transaction:
    /// it must not post or call observers.
    package var read: @Sendable (_ current: State) -> StorageLoad<State>
    /// Other documents the state is read from, followed as the document is.
    package var alsoFollowing: [String]

    package init(alsoFollowing: [String] = [], read: @escaping @Sendable (_ current: State) -> StorageLoad<State>) {
        self.read = read
        self.alsoFollowing = alsoFollowing
    }

    /// The state is the value of `document` in `storage`; a missing document keeps the state
    /// in memory, and a document that cannot be read is reported with the state kept.
    package static func document(_ document: StoreDocument<State>, in storage: any StoreStorage) -> StateReading
    where State: Codable {
        StateReading { current in
            do throws(StorageError) {
                return try storage.load(document.starting(from: current))
            } catch {
                return StorageLoad(value: current, isStored: false, recovery: error)
            }
        }
    }
}
