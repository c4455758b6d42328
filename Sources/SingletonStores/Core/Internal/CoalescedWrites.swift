import SingletonStoresLocking
import Timers

/// The writes of a ``PersistentStoreCore`` whose policy is ``StoreWritePolicy/coalescing(within:clock:)``:
/// a set commits in memory at once and leaves its value pending; the disk gets the newest
/// pending value at the end of the window the first pending set opened.
///
/// A pending value is a write under way for the ``WriteTracker``: it takes a sequence number
/// when it is set (so memory adopts it in the order of the sets and of the store's transactions),
/// and the store does not follow the disk until it is written; then it follows the disk again if
/// news came meanwhile, as after any write, so memory ends at what the disk holds.
///
/// The write itself is the storage's locked update, replacing the document with the pending
/// value (a set replaces the value whatever the disk holds, so the newest of a burst is all the
/// disk needs). A transaction of the store (`update`) folds the pending value in under the same
/// lock, before its body runs, and so writes it too. The scheduled write never waits for another
/// process: when one holds the lock, it tries again a window later. A write that fails drops the
/// pending value and puts memory back to what the disk holds; the scheduled write reports the
/// value lost (``StoreIssue/pendingValueLost(key:_:)``), ``flush()`` throws the failure. A value
/// still pending when the process exits normally is written then, waiting up to the storage's
/// lock timeout; one that could not be is reported lost, and the process's exit status says so
/// (``PendingWritesAtExit``).
final class CoalescedWrites<State: Codable & Sendable & Equatable>: Sendable {
    private struct Pending {
        /// The newest value set and not yet written.
        var value: State?
        /// Its sequence number.
        var sequence: UInt64 = 0
        /// The tracker's follow count when the pending write began.
        var follows: UInt64 = 0
        /// Whether a task waits for the end of a window to write.
        var isScheduled = false
    }

    /// What one attempt to write the pending value did.
    private enum Attempt {
        /// Nothing was pending, or the pending value is on disk now.
        case done
        /// Another process held the document's lock; nothing was written.
        case locked
    }

    let window: Duration
    private let clock: ErasedClock
    private let pending = Locked(Pending())
    private let document: StoreDocument<State>
    private let storage: any StoreStorage
    private let tracker: WriteTracker
    private let follower: DiskFollower<State>
    private let core: StoreCore<State>
    private let reportIssue: @Sendable (StoreIssue) -> Void

    init(
        window: Duration, clock: ErasedClock, document: StoreDocument<State>, storage: any StoreStorage,
        tracker: WriteTracker, follower: DiskFollower<State>, core: StoreCore<State>,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) {
        self.window = window
        self.clock = clock
        self.document = document
        self.storage = storage
        self.tracker = tracker
        self.follower = follower
        self.core = core
        self.reportIssue = reportIssue
    }

    /// Whether a value waits for the disk.
    var hasPendingValue: Bool { pending.withLock { $0.value != nil } }

    /// Commits `newValue` in memory (posting it) and leaves it pending; the first pending set
    /// of a window schedules the window's write.
    func set(_ newValue: State) {
        let (sequence, deadline) = pending.withLock { pending -> (UInt64, Duration?) in
            if pending.value == nil {
                pending.follows = tracker.beginWrite()
                PendingWritesAtExit.add(ObjectIdentifier(self)) { [self] in writeAtExit() }
            }
            pending.value = newValue
            pending.sequence = tracker.nextSequence()
            guard !pending.isScheduled else { return (pending.sequence, nil) }
            pending.isScheduled = true
            return (pending.sequence, clock.now() + window)
        }
        core.update { state in
            if tracker.adopt(sequence) { state = newValue }
        }
        if let deadline { schedule(at: deadline) }
    }

    /// For a transaction of the store, under the document's lock: starts `state` from the
    /// pending value, if any, and returns the transaction's sequence number (after the pending
    /// value's) and the sequence number of the value folded in.
    func fold(into state: inout State) -> (sequence: UInt64, folded: UInt64?) {
        pending.withLock { pending in
            var folded: UInt64?
            if let value = pending.value {
                state = value
                folded = pending.sequence
            }
            return (tracker.nextSequence(), folded)
        }
    }

    /// A transaction that folded in the pending value numbered `folded` reached the disk: that
    /// value is written, unless a newer one was set meanwhile.
    func transactionCommitted(folded: UInt64?) {
        guard let folded else { return }
        let follows = pending.withLock { pending -> UInt64? in
            guard pending.value != nil, pending.sequence == folded else { return nil }
            pending.value = nil
            PendingWritesAtExit.remove(ObjectIdentifier(self))
            return pending.follows
        }
        if let follows, tracker.endWrite(since: follows) { follower.adoptDisk() }
    }

    /// Writes the pending value now, waiting for another process's lock (up to the storage's
    /// timeout). On failure the value is dropped, memory goes back to the disk, and the error
    /// is thrown.
    func flush() throws(StorageError) {
        do {
            _ = try attempt(waits: true)
        } catch {
            dropAfterFailure()
            throw error
        }
    }

    /// The end of a window: writes the pending value without waiting; tries again a window later
    /// when another process holds the lock; reports a failure.
    func windowEnded() {
        pending.withLock { $0.isScheduled = false }
        do {
            if try attempt(waits: false) == .locked { rescheduleIfPending() }
        } catch {
            dropAfterFailure()
            reportIssue(.pendingValueLost(key: document.key, error))
        }
    }

    /// The process exits normally: writes the pending value (waiting for another process's lock
    /// as ``flush()`` does, up to the storage's lock timeout); whether it is on disk. A value
    /// that could not be written is reported lost.
    private func writeAtExit() -> Bool {
        do {
            _ = try attempt(waits: true)
            return true
        } catch {
            reportIssue(.pendingValueLost(key: document.key, error))
            return false
        }
    }

    /// Writes the pending value with the storage's locked update, replacing the document.
    private func attempt(waits: Bool) throws(StorageError) -> Attempt {
        guard hasPendingValue else { return .done }
        var written: UInt64?
        let body = { (state: inout State) throws(StorageError) -> Void in
            // Under the document's lock: the newest pending value, taken now.
            written = self.pending.withLock { pending -> UInt64? in
                guard let value = pending.value else { return nil }
                state = value
                return pending.sequence
            }
        }
        let committed: StorageUpdate<State, Void>?
        do {
            if waits {
                committed = try storage.update(document, body)
            } else {
                committed = try storage.updateIfAvailable(document, body)
            }
        } catch {
            // Written, but its flush failed: the value is in the document, which others read. It
            // is done, not lost, and the doubt about its durability is reported.
            guard case .notDurable = error, written != nil else { throw error }
            transactionCommitted(folded: written)
            reportIssue(.storageRecovered(error))
            return .done
        }
        guard let committed else { return .locked }
        transactionCommitted(folded: written)
        if let recovered = committed.recovery { reportIssue(.storageRecovered(recovered)) }
        return .done
    }

    /// After a failed write: drops the pending value and puts memory back to the document on
    /// disk (its default value when there is none). A value set after this wins, as it is newer.
    private func dropAfterFailure() {
        let (follows, sequence) = pending.withLock { pending -> (UInt64?, UInt64) in
            guard pending.value != nil else { return (nil, tracker.nextSequence()) }
            pending.value = nil
            PendingWritesAtExit.remove(ObjectIdentifier(self))
            return (pending.follows, tracker.nextSequence())
        }
        if let follows, tracker.endWrite(since: follows) { follower.adoptDisk() }
        guard let loaded = try? storage.load(document) else { return }
        core.update { state in
            if tracker.adopt(sequence) { state = loaded.value }
        }
        if let recovered = loaded.recovery { reportIssue(.storageRecovered(recovered)) }
    }

    private func rescheduleIfPending() {
        let deadline = pending.withLock { pending -> Duration? in
            guard pending.value != nil, !pending.isScheduled else { return nil }
            pending.isScheduled = true
            return clock.now() + window
        }
        if let deadline { schedule(at: deadline) }
    }

    /// Starts the task that writes at `deadline` (an offset on the erased clock). The task holds
    /// this object until then, so a store released meanwhile still gets its last value written.
    private func schedule(at deadline: Duration) {
        let settling = clock.settling
        settling?.willStartTask()
        let clock = self.clock
        Task.detached { [self] in
            settling?.taskDidStart()
            // A cancelled sleep (never, today: the task is nobody's to cancel) writes at once.
            try? await clock.sleep(deadline)
            windowEnded()
            settling?.taskDidFinish()
        }
    }
}
