import SingletonStoresLocking

/// What the purchase documents decoded, counted for tests that bound the work of a launch or a
/// purchase (entries read, not time taken). Nothing counts unless a test sets ``tally`` for
/// its task.
///
/// ```swift
/// let tally = LedgerDecoding.Tally()
/// // Not watching: news of the launch's own write could be read again, and counted, meanwhile.
/// LedgerDecoding.$tally.withValue(tally) { _ = PurchaseManager(storage: storage, watching: .off) }
/// let entries = tally.counts.entries   // ledger entries decoded by the launch
/// ```
enum LedgerDecoding {
    /// How many items were decoded.
    struct Counts: Sendable, Equatable {
        /// Ledger entries.
        var entries = 0
        /// Ledger checkpoints.
        var checkpoints = 0
        /// Receipts of the local backend.
        var receipts = 0
    }

    /// A running count, shared by the tasks that set it.
    final class Tally: Sendable {
        private let state = Locked(Counts())

        /// An empty tally.
        init() {}

        /// The counts so far.
        var counts: Counts { state.withLock { $0 } }

        /// Adds `more`.
        func add(_ more: Counts) {
            state.withLock { counts in
                counts.entries += more.entries
                counts.checkpoints += more.checkpoints
                counts.receipts += more.receipts
            }
        }
    }

    /// The tally of the current task, if a test set one.
    @TaskLocal static var tally: Tally?

    /// Counts what was just decoded, when the current task has a tally.
    static func count(entries: Int = 0, checkpoints: Int = 0, receipts: Int = 0) {
        tally?.add(Counts(entries: entries, checkpoints: checkpoints, receipts: receipts))
    }
}
