import Foundation
import SingletonStores
import Timers

extension CountdownStore {
    /// `startIfIdle(duration:)` in seconds, with the boost's errors: a failed save is reported
    /// to `reportIssue` (then nothing changed).
    func startIfIdleSeconds(_ duration: Int) throws(BoostError) {
        guard duration > 0 else { throw .invalidDuration(duration) }
        do throws(CountdownError) {
            try startIfIdle(duration: .seconds(duration))
        } catch {
            switch error {
            case .alreadyRunning(let seconds): throw .alreadyRunning(remainingSeconds: seconds)
            case .invalidDuration: throw .invalidDuration(duration)
            case .storage(let failure): reportIssue(.storageRecovered(failure))
            }
        }
    }

    /// Starts a countdown of `duration` seconds paid for by `payment` — spending one boost item,
    /// say — as one durable step, only if no countdown is running or paused in any process.
    ///
    /// The decision is taken under the document's lock from what is on disk. `payment`
    /// runs under that lock with the ``BoostGrant`` describing the countdown; it should record the
    /// grant in the same write that spends the item (``PurchaseManager`` writes it into the
    /// ledger entry, after checking under the ledger's lock that no other item was spent on a
    /// countdown since this decision — should the document's lock file be removed meanwhile,
    /// the decision is taken again). From the moment `payment` returns, the countdown is the
    /// grant's: the grant carries its end on the boot time line and its length, so a later
    /// launch that finds only the grant (killed before the document was written, or the write
    /// failed) shows it as this store would have written it, and a failed write of the
    /// document is reported to `reportIssue`, not thrown — the item was spent and its countdown
    /// runs. That holds for the boost (``BoostTimeManager``), which reads the ledger's grants;
    /// a countdown of your own records its own document only.
    ///
    /// - Parameters:
    ///   - duration: Seconds, above zero; more than `CountdownStore.maximumDuration` is clamped.
    ///   - payment: Spends what the countdown costs, or throws to refuse it. It must not post or
    ///     touch the countdown.
    /// - Throws: ``PurchaseError/boostNotStarted(_:)`` when a countdown is running, or what
    ///   `payment` threw, or the storage's error when the decision could not be read or taken;
    ///   then nothing was spent.
    public func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        guard duration > 0 else { throw .boostNotStarted(.invalidDuration(duration)) }
        try startIfIdle(
            duration: .seconds(duration),
            paidBy: { (grant: CountdownGrant) throws(PurchaseError) in
                try payment(BoostGrant(grant))
                FaultInjection.reach(.boostItemSpent)
            },
            refusal: { (refusal: CountdownError) -> PurchaseError in
                switch refusal {
                case .alreadyRunning(let seconds): .boostNotStarted(.alreadyRunning(remainingSeconds: seconds))
                case .invalidDuration: .boostNotStarted(.invalidDuration(duration))
                case .storage(let error): .storage(error)
                }
            },
            grantIssue: { StoreIssue.countdownRunsFromItsGrant(key: key, $0) })
    }
}
