import Foundation
import Timers

extension CountdownStore {
    /// Adopts what another process wrote, if the disk no longer holds what this process last
    /// saw or wrote.
    ///
    /// Takes no file lock, so following never waits for another process (one that holds the
    /// lock may be stopped): documents are replaced atomically, so the read finds the last
    /// committed record. It adopts that record only if no transaction of this process began
    /// meanwhile; news that comes while one is under way is followed when it ends.
    func followDisk() {
        let started = model.withLock { model -> UInt64? in
            guard model.transactionsUnderWay == 0 else {
                model.followAgain = true
                return nil
            }
            return model.ticketsIssued
        }
        guard let started else { return }
        let onDisk = journal.current()
        let now = timer.now
        let claimed = model.withLock { model -> Bool in
            guard model.committed != onDisk else { return false }
            guard model.transactionsUnderWay == 0, model.ticketsIssued == started else {
                model.followAgain = true
                return false
            }
            let phase = CountdownModel.phase(of: onDisk, at: now, wallClock: wallClock, bootClock: bootClock)
            return model.finish(model.begin(phase, record: onDisk, movesCountdown: true))
        }
        if claimed { deliver() }
    }

    /// Runs `body`, reporting a failed save to `reportIssue` (as a document that could not be
    /// used) instead of throwing it: for the calls that report rather than throw.
    package func reportingFailure(_ body: () throws(StorageError) -> Void) {
        do {
            try body()
        } catch {
            reportIssue(.storageRecovered(error))
        }
    }

    /// Reports `issue` through the store's `reportIssue`.
    package func reportIssue(_ issue: StoreIssue) {
        journal.reportIssue(issue)
    }

    /// Clears the record of a countdown that ran out here, unless the disk says another
    /// countdown has started since (which this process then shows).
    ///
    /// Never waits: while another process holds the lock, the record is left as it is — an
    /// end in the past reads as no countdown everywhere — and the countdown ends at once.
    func clearIfEnded() {
        change(waits: false) { phase, now in
            if case .running(let deadline) = phase, deadline <= now { phase = .idle }
        }
    }

    /// Runs a change of the phase as one transaction on disk; storage failures are reported and
    /// leave everything as it was.
    ///
    /// - Parameter waits: Whether to wait for another process's lock (up to the storage's
    ///   timeout); when `false`, a held lock skips the change and returns `nil`.
    @discardableResult
    func change<Outcome>(
        waits: Bool = true,
        _ decide: (inout CountdownModel.Phase, CountdownTimer.Instant) -> Outcome
    ) -> Outcome? {
        do {
            return try changeSaving(waits: waits, decide)
        } catch {
            journal.reportIssue(.storageRecovered(error))
            return nil
        }
    }

    /// Runs a change of the phase as one transaction on disk; a storage failure is thrown and
    /// leaves everything as it was.
    @discardableResult
    func changeSaving<Outcome>(
        waits: Bool = true,
        _ decide: (inout CountdownModel.Phase, CountdownTimer.Instant) -> Outcome
    ) throws(StorageError) -> Outcome? {
        var outcome: Outcome?
        try transact(waits: waits) {
            (_: inout CountdownRecord, phase: CountdownModel.Phase, now: CountdownTimer.Instant, _: String?)
                -> CountdownModel.Phase in
            var next = phase
            outcome = decide(&next, now)
            return next
        }
        return outcome
    }

    /// The transaction every change goes through.
    ///
    /// Under the document's lock: reads the record on disk; if another process changed
    /// it since this one last looked, adopts it; lets `decide` move the phase (and, for item
    /// spends, set the record itself); writes the record of the new phase. After the lock is
    /// released, the countdown is moved to the newest committed phase, in commit order, outside
    /// every lock (its posts may call back into this store).
    func transact(
        waits: Bool = true,
        _ decide: (inout CountdownRecord, CountdownModel.Phase, CountdownTimer.Instant, _ latestGrantID: String?)
            throws(StorageError) -> CountdownModel.Phase
    ) throws(StorageError) {
        model.withLock { $0.transactionsUnderWay += 1 }
        defer { if model.withLock({ $0.endTransaction() }) { followDisk() } }
        let committed = try journal.transaction(waits: waits) {
            (record: inout CountdownRecord, latestGrantID: String?) throws(StorageError) -> CountdownModel.Commit in
            let now = timer.now
            let onDisk = record
            let (current, adopted) = model.withLock { model -> (CountdownModel.Phase, Bool) in
                // The disk is the truth; the monotonic phase is kept only while the disk still
                // holds what this process last saw or wrote.
                guard model.committed == onDisk else {
                    return (CountdownModel.phase(of: onDisk, at: now, wallClock: wallClock, bootClock: bootClock), true)
                }
                return (model.phase, false)
            }
            let next = try decide(&record, current, now, latestGrantID)
            if record == onDisk, next != current {
                record = CountdownModel.record(
                    of: next, at: now, wallClock: wallClock, bootClock: bootClock, settled: onDisk.settledGrantID)
            }
            return model.withLock { model in
                model.begin(next, record: record, movesCountdown: adopted || next != current)
            }
        }
        guard let commit = committed else { return }  // the lock was held; nothing changed
        let claimed = model.withLock { $0.finish(commit) }
        if claimed { deliver() }
    }

    /// Moves the countdown to each committed phase in turn, until none is left.
    private func deliver() {
        while true {
            let batch = model.withLock { $0.outbox.takeBatch() }
            if batch.isEmpty { return }
            batch.forEach { apply($0) }
        }
    }

    /// Tells Swift Observation that `keyPath` changed (after the change, outside every lock).
    func announce<Value>(_ keyPath: KeyPath<CountdownStore, Value>) {
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }

    /// Moves the countdown to `target`, and announces a pause or resume to Swift Observation
    /// and, when `posting`, on ``pauses`` (not for the state a store starts in).
    func apply(_ target: CountdownModel.Phase, posting: Bool = true) {
        let wasPaused = timer.isPaused
        move(to: target)
        let isPaused = timer.isPaused
        guard isPaused != wasPaused else { return }
        announce(\.isPaused)
        announce(\.remainingSeconds)
        // A paused countdown that was stopped did not resume: its end is posted on `ends`.
        guard posting, isPaused || timer.isRunning else { return }
        pauses.post(isPaused, center: center)
    }

    /// Moves the countdown to `target` with the fewest changes: a new deadline is an extension
    /// (no end is reported for it), a stop reports the end once.
    private func move(to target: CountdownModel.Phase) {
        switch target {
        case .idle:
            timer.stop()
        case .running(let deadline):
            if timer.isPaused { timer.resume() }
            if timer.isRunning, let current = timer.deadline {
                let shift = current.duration(to: deadline)
                if shift != .zero { timer.extend(by: shift) }
            } else {
                timer.start(duration: timer.now.duration(to: deadline))
            }
        case .paused(let remaining) where remaining <= .zero:
            timer.stop()
        case .paused(let remaining):
            if timer.isRunning { timer.pause() }
            if timer.isPaused {
                let shift = remaining - timer.remaining
                if shift != .zero { timer.extend(by: shift) }
            } else {
                timer.start(duration: remaining)
                timer.pause()
            }
        }
    }
}
