import SingletonStoresLocking

/// Brings a ``PersistentStoreCore``'s memory up to date with its document when a watch says
/// the document (or another one its state is read from, see ``StateReading``) may have
/// changed.
///
/// The watch is started before the document is loaded, so that no version written in between
/// is missed; news that comes before the store's core exists is remembered and acted on once
/// it does.
final class DiskFollower<State: Codable & Sendable & Equatable>: Sendable {
    private let reading: StateReading<State>
    private let reportIssue: @Sendable (StoreIssue) -> Void
    private let tracker: WriteTracker
    private let core = LateBound<StoreCore<State>>()
    /// The last problem reported, so one that persists is reported once, not at every change.
    private let lastProblem = Locked<StorageError?>(nil)

    init(
        reading: StateReading<State>, tracker: WriteTracker, reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) {
        self.reading = reading
        self.tracker = tracker
        self.reportIssue = reportIssue
    }

    /// Starts following into `core`, first catching up if news came while it was being made.
    func attach(_ core: StoreCore<State>) {
        if self.core.bind(core) { adoptDisk() }
    }

    /// Reads the document and commits it in memory if it differs, posting the change.
    ///
    /// The read (the store's ``StateReading``) takes no file lock and happens inside the
    /// core's transaction, ordered with this store's own writes by the ``WriteTracker``: while
    /// one is under way nothing is adopted, and the write follows the disk again when it is
    /// done. A version this store wrote is already in memory and posts nothing. With the
    /// document's own reading, a bad document is kept aside by the storage and reported, and a
    /// missing one changes nothing (the store keeps its state until it writes again).
    func adoptDisk() {
        guard let core = core.targetForNews() else { return }
        var problem: StorageError?
        core.update(origin: .otherProcess) { state in
            tracker.follow { () -> Void in
                let loaded = reading.read(state)
                problem = loaded.recovery
                if loaded.isStored { state = loaded.value }
            }
        }
        let isNew = lastProblem.withLock { last -> Bool in
            defer { last = problem }
            return problem != nil && problem != last
        }
        if isNew, let problem { reportIssue(.storageRecovered(problem)) }
    }
}
