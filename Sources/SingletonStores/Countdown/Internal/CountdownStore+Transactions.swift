import Foundation
import Timers

extension CountdownStore {
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
        do {
            try changeSaving(waits: false) { phase, now in
                if case .running(let deadline) = phase, deadline <= now { phase = .idle }
            }
        } catch {
            journal.reportIssue(.storageRecovered(error))
        }
    }

    /// Runs a change of the phase as one transaction on disk; a storage failure is thrown and
    /// leaves everything as it was.
    ///
    /// - Parameter waits: Whether to wait for another process's lock (up to the storage's
    ///   timeout); when `false`, a held lock skips the change and returns `nil`.
    @discardableResult
    func changeSaving<Outcome>(
        waits: Bool = true,
        _ decide: (inout CountdownState.Phase, CountdownTimer.Instant) -> Outcome
    ) throws(StorageError) -> Outcome? {
        var outcome: Outcome?
        try transact(waits: waits) {
            (_: inout CountdownRecord, phase: CountdownState.Phase, now: CountdownTimer.Instant, _: String?)
                -> CountdownState.Phase in
            var next = phase
            outcome = decide(&next, now)
            return next
        }
        return outcome
    }

    /// The transaction every change goes through: the store core's, on the countdown's state.
    ///
    /// Under the document's lock: reads the record on disk, merged with the newest grant; if
    /// another process changed it since this one last looked, adopts it; lets `decide` move the
    /// phase (and, for item spends, set the record itself; it is given the id of the newest
    /// grant on disk, `nil` for none, for the spend to check under that document's lock);
    /// writes the record of the new phase. The core then commits the state in memory, in
    /// commit order, and hands it to ``apply(_:posting:)`` outside every lock (its posts may
    /// call back into this store).
    func transact(
        waits: Bool = true,
        _ decide: (inout CountdownRecord, CountdownState.Phase, CountdownTimer.Instant, _ latestGrantID: String?)
            throws(StorageError) -> CountdownState.Phase
    ) throws(StorageError) {
        try persisted.transaction(waits: waits) { (state: inout CountdownState) throws(StorageError) in
            let grant = try journal.latestGrant()
            var record = state.record.merging(grant)
            let onDisk = record
            let now = timer.now
            // The disk is the truth; the monotonic phase is kept only while the disk still
            // holds what this process last saw or wrote.
            let memory = persisted.state
            let kept = memory.record == onDisk ? memory.phase : nil
            let current = kept ?? CountdownState.phase(of: onDisk, at: now, wallClock: wallClock, bootClock: bootClock)
            let next = try decide(&record, current, now, grant?.id)
            if record == onDisk, next != current {
                record = CountdownState.record(
                    of: next, at: now, wallClock: wallClock, bootClock: bootClock, settled: onDisk.settledGrantID)
            }
            state = CountdownState(record: record, phase: next)
        }
    }

    /// Tells Swift Observation that `keyPath` changed (after the change, outside every lock).
    func announce<Value>(_ keyPath: KeyPath<CountdownStore, Value>) {
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }

    /// Moves the countdown to the phase of `state`, and announces a pause or resume to Swift
    /// Observation and, when `posting`, on ``pauses`` (not for the state a store starts in).
    func apply(_ state: CountdownState, posting: Bool = true) {
        let target =
            state.phase
            ?? CountdownState.phase(of: state.record, at: timer.now, wallClock: wallClock, bootClock: bootClock)
        let wasPaused = timer.isPaused
        timer.move(to: target)
        let isPaused = timer.isPaused
        guard isPaused != wasPaused else { return }
        announce(\.isPaused)
        announce(\.remainingSeconds)
        // A paused countdown that was stopped did not resume: its end is posted on `ends`.
        guard posting, isPaused || timer.isRunning else { return }
        pauses.post(isPaused, center: center)
    }
}

extension CountdownTimer {
    /// Moves the countdown to `target` with the fewest changes: a new deadline is an extension
    /// (no end is reported for it), a stop reports the end once.
    func move(to target: CountdownState.Phase) {
        switch target {
        case .idle:
            stop()
        case .running(let deadline):
            if isPaused { resume() }
            if isRunning, let current = self.deadline {
                let shift = current.duration(to: deadline)
                if shift != .zero { extend(by: shift) }
            } else {
                start(duration: now.duration(to: deadline))
            }
        case .paused(let remaining) where remaining <= .zero:
            stop()
        case .paused(let remaining):
            if isRunning { pause() }
            if isPaused {
                let shift = remaining - self.remaining
                if shift != .zero { extend(by: shift) }
            } else {
                start(duration: remaining)
                pause()
            }
        }
    }
}
