import Foundation
import Timers

extension CountdownStore {
    /// How many times an item use decides again when another item was spent meanwhile.
    private static let spendAttempts = 8

    /// Starts a countdown of `duration` paid for by `payment` — spending one item, say — as one
    /// durable step, only if no countdown is running or paused in any process.
    ///
    /// The decision is taken under the document's lock from what is on disk. `payment` runs
    /// under that lock with the ``CountdownGrant`` describing the countdown; it should record
    /// the grant in the same write that spends the item, after checking under its own lock,
    /// with the grant's `spendCheck` (set when this store reads grants), that no other item was
    /// spent on a countdown since this decision — should the document's lock file be removed
    /// meanwhile, the decision is taken again. From the moment `payment` returns, the countdown
    /// is the grant's: a later launch that finds only the grant shows it as this store would
    /// have written it, and a failed write of the document is reported (as `grantIssue` makes
    /// it), not thrown — the item was spent and its countdown runs.
    ///
    /// - Parameters:
    ///   - duration: Above zero; more than ``maximumDuration`` is clamped.
    ///   - payment: Spends what the countdown costs, or throws to refuse it. It must not post or
    ///     touch the countdown.
    ///   - refusal: The error to throw for a refusal of the countdown's own.
    ///   - grantIssue: The issue reported when the item was spent but the document could not
    ///     be written.
    /// - Throws: `refusal` of why the countdown did not start, or what `payment` threw; then
    ///   nothing was spent.
    package func startIfIdle<Failure: Error>(
        duration: Duration,
        paidBy payment: (CountdownGrant) throws(Failure) -> Void,
        refusal: (CountdownError) -> Failure,
        grantIssue: (StorageError) -> StoreIssue
    ) throws(Failure) {
        guard duration > .zero else { throw refusal(.invalidDuration(duration)) }
        let length = Self.clamped(duration)
        // The grant the item was spent on, once it was: from then on the countdown is that
        // grant's, whatever happens to the write of this record.
        var paid: CountdownGrant?
        var attempt = 0
        while true {
            attempt += 1
            var failure: Failure?
            var check: CountdownSpendCheck?
            do throws(StorageError) {
                try transact {
                    (
                        record: inout CountdownRecord, phase: CountdownState.Phase, now: CountdownTimer.Instant,
                        latestGrantID: String?
                    ) throws(StorageError) -> CountdownState.Phase in
                    // Run again after the item was spent (the lock file was removed or replaced
                    // before this record was written): the disk holds the grant, which is the
                    // countdown now; it is adopted and written as it is.
                    if paid != nil { return phase }
                    failure = nil
                    if let running = phase.shownSeconds(at: now) {
                        failure = refusal(.alreadyRunning(remainingSeconds: running))
                        return phase
                    }
                    var started = CountdownRecord.running(
                        endDate: wallClock.date(after: length), left: length, bootClock: bootClock, settled: nil)
                    var grant = CountdownGrant(id: UUID().uuidString, record: started)
                    // Only a countdown that reads grants decides from them.
                    if journal.grants != nil {
                        let spendCheck = CountdownSpendCheck(latestGrantID: latestGrantID)
                        grant.spendCheck = spendCheck
                        check = spendCheck
                    }
                    do throws(Failure) {
                        try payment(grant)
                    } catch {
                        failure = error
                        return phase
                    }
                    grant.spendCheck = nil
                    paid = grant
                    started.settledGrantID = grant.id
                    record = started
                    return .running(deadline: now.advanced(by: length))
                }
            } catch {
                guard paid != nil else { throw failure ?? refusal(.storage(error)) }
                // Spent, and the grant is on disk: the countdown runs from it. Say so, and show it.
                journal.reportIssue(grantIssue(error))
                persisted.followDisk()
                return
            }
            if paid != nil { return }
            // Another item was spent on a countdown after this decision: decide again, from disk.
            if check?.isStale == true, attempt < Self.spendAttempts { continue }
            if let failure { throw failure }
            return
        }
    }
}
