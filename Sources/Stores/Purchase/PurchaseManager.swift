import Foundation
import SingletonStores
import StoreObservation
import Timers

extension NotificationChannel where Payload == StoreChange<PurchaseLedger> {
    /// Every committed change of the purchase ledger (items bought or used, premium bought).
    public static let purchaseLedger = NotificationChannel("SingletonStores.PurchaseManager.ledger")
}

extension NotificationChannel where Payload == StoreChange<PurchaseFlowState> {
    /// Every move of the purchase flow.
    public static let purchaseFlow = NotificationChannel("SingletonStores.PurchaseManager.flow")
}

/// The app's purchase state: owned boost items, premium, and the purchase flow.
///
/// ```swift
/// try await PurchaseManager.shared.buy(.boostItems(3))
/// let owned = PurchaseManager.shared.ownedBoostItems   // 3
/// try PurchaseManager.shared.useBoostItem(duration: 30 * 60)
/// ```
///
/// Counts are derived from a persisted, append-only ``PurchaseLedger`` (the `purchases`
/// document); every change goes through the storage's locked read-modify-write, so two processes
/// buying at once lose nothing. The same write folds all but the newest 64 entries into the
/// ledger's checkpoint, so a launch and a purchase cost the same after ten purchases or after a
/// million.
///
/// ## Using a boost item
/// ``useBoostItem(duration:)`` starts a boost only if none is running in any process, and spends
/// the item in the same step: the decision is taken under the boost document's lock from what is
/// on disk, and the ledger entry that spends the item also records the boost it starts (a
/// ``BoostGrant``, with its end on the boot time line and its length). Under the ledger's lock
/// the spend checks that no other item was spent on a boost since the decision (the boost's
/// lock file may have been removed meanwhile); if one was, nothing is spent and the boost
/// decides again. So a boost that does not start never costs an item, two concurrent taps
/// with one item — in one process or in two — spend exactly one, and a crash at any moment
/// leaves either the item unspent and no boost, or the item spent and its boost running to its
/// original end. Once the item is spent, the use succeeds: a boost document that then can't be
/// written is reported (`StoreIssue.countdownRunsFromItsGrant(key:_:)`), and the boost runs
/// from its grant, protected as if the document had been written.
///
/// A boost that is already running is not extended: using an item then is refused with
/// ``PurchaseError/boostNotStarted(_:)`` and nothing is spent.
///
/// ## Interrupted purchases
/// Before it asks the backend for payment, ``buy(_:)`` checks under the ledger's lock, from the
/// document on disk, that the ledger can be written: when it can't for a reason waiting will
/// not cure — another program's `purchases.json` in a folder the library did not make, another
/// user's file, a lock file that is a folder, a pipe or a link — the purchase is refused with
/// ``PurchaseError/notRecorded(_:)``, which names the file, and nothing is charged. A lock held
/// by another process is not such a reason: the purchase goes ahead, as below.
///
/// A purchase is paid for when the backend returns its receipt, and credited when the ledger
/// records it. When the ledger can't be written then (another process holds its lock, the disk
/// is full), ``buy(_:)`` throws ``PurchaseError/notYetCredited(_:reason:)``: the purchase is
/// taken, and is credited when the store is next created, or with the next purchase or restore
/// — never "nothing changed, try again", which would buy twice. A purchase killed between
/// payment and credit is credited the same way. The backend's
/// ``PurchaseBackend/pendingReceipts()`` are compared with the ledger, every receipt it lacks
/// is added, and every receipt the ledger holds is then finished
/// (``PurchaseBackend/finish(_:)``), as StoreKit finishes a transaction only once its content
/// is delivered: so each receipt is credited once, whatever happens — the ledger keeps the id of
/// every receipt it credited until the backend no longer reports it pending
/// (`unfinishedReceiptIDs`), however many purchases were credited since, so a
/// finish that fails or is killed never leads to a second credit. Creating the store never
/// waits for another process: while one holds the ledger's lock (a purchase in progress, or a
/// process that was stopped), the receipts are left to a later launch and the store shows the
/// ledger as last committed. The backend is never called under the lock.
///
/// ## A ledger kept aside
/// A ledger that can't be read, or that a newer version wrote, is kept aside by the storage and
/// this store starts a new one. Receipts already finished are not pending, so the new ledger
/// never credits a purchase the kept one had credited — its items, and the items it spent,
/// stay in the kept file, which the message names (put it back while the app is closed, or
/// update the app). ``restore()``, which a user asks for, credits what the backend returns
/// that the ledger lacks: premium again (the same end date), never boost items already
/// credited (see ``PurchaseBackend/restore()``).
public final class PurchaseManager: PurchaseStoreContract {
    /// The app's purchase state: the local backend, the default data folder and clocks.
    public static let shared = PurchaseManager()

    private let ledger: PersistentStoreCore<PurchaseLedger>
    private let storage: any StoreStorage
    private let reportIssue: @Sendable (StoreIssue) -> Void
    private let flow: StoreCore<PurchaseFlowState>
    private let backend: any PurchaseBackend
    private let wallClock: WallClock
    private let boost: (any BoostTimeManagerContract)?

    /// Creates a purchase store.
    ///
    /// - Parameters:
    ///   - backend: Takes payments; the local backend on `storage` by default.
    ///   - storage: Where the `purchases` ledger lives.
    ///   - wallClock: Dates ledger entries and decides whether premium is active.
    ///   - boost: The boost countdown items start; `nil` (the default) uses the current one of
    ///     `StoreValues` at the time of use.
    ///   - center: The notification center changes are posted to.
    ///   - watching: How the store follows changes other processes write to its document;
    ///     file events or a poll by default, `.off` to read it only at launch and on writes.
    ///   - reportIssue: Receives storage problems; prints to standard error by default.
    public init(
        backend: (any PurchaseBackend)? = nil,
        storage: any StoreStorage = FileStorage(),
        wallClock: WallClock = .system,
        boost: (any BoostTimeManagerContract)? = nil,
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.backend = backend ?? LocalPurchaseBackend(storage: storage, wallClock: wallClock, reportIssue: reportIssue)
        self.wallClock = wallClock
        self.boost = boost
        self.storage = storage
        self.reportIssue = reportIssue
        ledger = PersistentStoreCore(
            PurchaseDocuments.ledger, storage: storage, channel: .purchaseLedger, center: center, watching: watching,
            reportIssue: reportIssue)
        flow = StoreCore(.idle, channel: .purchaseFlow, center: center)
        let unreadable = ledger.state.unreadableEntries
        if let first = unreadable.first {
            reportIssue(.unreadableLedgerEntries(count: unreadable.count, firstReason: first.reason))
        }
        creditPendingReceipts()
    }

    // MARK: Reading

    /// The ledger every count is derived from.
    public var purchaseLedger: PurchaseLedger { ledger.state }

    /// The notification center changes of the ledger and of the flow are posted to.
    public var center: NotificationCenter { flow.center }

    /// The boost items owned.
    public var ownedBoostItems: Int { ledger.state.boostItems }
    /// When premium ends, or `nil` if it was never bought.
    public var premiumExpiry: Date? { ledger.state.premiumExpiry }
    /// Whether premium is active now, on the injected wall clock.
    public var isPremium: Bool { premiumExpiry.map { $0 > wallClock.now() } ?? false }
    /// Where the purchase flow is.
    public var flowState: PurchaseFlowState { flow.state }
    /// The problem found when the ledger was loaded, if its document was kept aside.
    public var loadProblem: StorageError? { ledger.loadProblem }

    // MARK: Buying

    /// Buys `product`: the flow moves to purchasing, then to purchased, cancelled or failed.
    ///
    /// - Returns: What the purchase came to.
    /// - Throws: ``PurchaseError/busy(_:)`` if a purchase or restore is running (nothing
    ///   changes), ``PurchaseError/invalidProduct(_:)``, ``PurchaseError/notRecorded(_:)`` when
    ///   the ledger can't take the purchase (nothing was charged), or the backend's failure (the flow ends
    ///   in ``PurchaseFlowState/failed(reason:)``); ``PurchaseError/notYetCredited(_:reason:)``
    ///   when the purchase was paid for but the ledger could not be written: the backend keeps
    ///   the receipt pending and the next launch (or purchase, or restore) credits it.
    @discardableResult
    public func buy(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        guard product.isWithinLimits else { throw .invalidProduct(product) }
        try move(to: .purchasing(product))
        do throws(PurchaseError) {
            try checkLedgerCanCredit()
            let outcome = try await backend.purchase(product)
            switch outcome {
            case .purchased(let receipt):
                FaultInjection.reach(.purchasePaid)
                do throws(PurchaseError) {
                    _ = try record([receipt], paid: true, readBefore: ledger.state)
                } catch {
                    // Paid and recorded by the backend, which keeps it pending: never "nothing
                    // changed, try again" — buying again would buy again.
                    guard case .storage(let problem) = error else { throw error }
                    throw PurchaseError.notYetCredited(receipt, reason: problem)
                }
                FaultInjection.reach(.purchaseCredited)
                try? move(to: .purchased(product))
            case .cancelled:
                try? move(to: .cancelled)
            }
            return outcome
        } catch {
            try? move(to: .failed(reason: error.description))
            throw error
        }
    }

    /// Restores earlier purchases: the receipts the backend restores that the ledger lacks are
    /// added, then finished with the backend (a backend restores no consumed boost items, so a
    /// ledger kept aside gives back premium, never items bought and spent).
    ///
    /// What the backend returns is added only to the ledger as it was before the backend was
    /// asked: when another process changed the ledger meanwhile (it may have credited the same
    /// receipts), the backend is asked again.
    ///
    /// - Returns: How many receipts were new.
    /// - Throws: ``PurchaseError/busy(_:)`` if a purchase or restore is running, the backend's
    ///   failure, or ``PurchaseError/failed(reason:)`` when other processes changed the ledger
    ///   each of 8 times it was asked (then nothing was added); the flow ends in
    ///   ``PurchaseFlowState/failed(reason:)``.
    @discardableResult
    public func restore() async throws(PurchaseError) -> Int {
        try move(to: .restoring)
        do throws(PurchaseError) {
            for _ in 0..<Self.restoreRounds {
                let before = ledger.state  // read before the backend is asked
                if let added = try record(try await backend.restore(), paid: false, readBefore: before) {
                    try? move(to: added > 0 ? .purchased(nil) : .idle)
                    return added
                }
            }
            throw PurchaseError.failed(
                reason:
                    "other processes changed the purchases \(Self.restoreRounds) times while this one restored them; nothing was added, restore again"
            )
        } catch {
            try? move(to: .failed(reason: error.description))
            throw error
        }
    }

    /// How many times ``restore()`` asks the backend again when another process changed the
    /// ledger between its answer and the credit.
    private static let restoreRounds = 8

    /// Returns the flow to idle after a finished purchase; does nothing while one is running.
    public func acknowledge() {
        try? move(to: .idle)
    }

    // MARK: Using items

    /// Spends one boost item and starts a boost of `duration` seconds, as one durable step.
    ///
    /// - Parameter duration: The boost's length in seconds, above zero.
    /// - Throws: ``PurchaseError/noBoostItems`` or ``PurchaseError/boostNotStarted(_:)`` (a boost
    ///   is running, or the duration is not above zero), or ``PurchaseError/storage(_:)`` when
    ///   the boost's or the ledger's document can't be written (it names the file); then
    ///   nothing was spent.
    public func useBoostItem(duration: Int) throws(PurchaseError) {
        let boost = self.boost ?? StoreValues.current.boost
        let now = wallClock.now()
        var readLedger = false
        defer { if readLedger { adoptLedgerFromDisk() } }  // memory follows the disk, after every lock
        try boost.startCountDownIfIdle(duration: duration) { grant throws(PurchaseError) in
            // Under the boost's lock: spend on disk, from the ledger as it is on disk.
            readLedger = true
            FaultInjection.reach(.boostItemSpending)
            var recorded = grant
            recorded.spendCheck = nil
            let spend: Spend
            do throws(StorageError) {
                spend = try storage.update(PurchaseDocuments.ledger) { ledger -> Spend in
                    // Under the ledger's lock: no other item was spent on a boost since the
                    // boost decided (its lock file may have been removed meanwhile).
                    if let check = grant.spendCheck, ledger.latestBoostGrant?.id != check.latestGrantID {
                        check.markStale()
                        return .stale(ledger.latestBoostGrant)
                    }
                    guard ledger.boostItems > 0 else { return .noItems }
                    ledger.append(.boostItemUsed, at: now, boost: recorded)
                    ledger.compact()
                    return .spent
                }.outcome
            } catch {
                throw .storage(error)
            }
            switch spend {
            case .spent: return
            case .noItems: throw .noBoostItems
            case .stale(let newer):
                let left = newer.map { $0.endDate.timeIntervalSince(now).rounded(.up) } ?? 0
                throw .boostNotStarted(.alreadyRunning(remainingSeconds: left >= 1 && left < 1e15 ? Int(left) : 1))
            }
        }
    }

    /// What an item use found in the ledger on disk.
    private enum Spend {
        /// The item was spent on the boost.
        case spent
        /// No item is owned; nothing was spent.
        case noItems
        /// Another item was spent on a boost (this one) since the boost decided; nothing was spent.
        case stale(BoostGrant?)
    }

    /// Calls `handler` with every change of the ledger.
    ///
    /// - Parameter handler: Called with each change.
    /// - Returns: A token that keeps the observer registered.
    public func observeLedger(
        _ handler: @escaping @Sendable (StoreChange<PurchaseLedger>) -> Void
    ) -> ObservationToken {
        ledger.observe(handler)
    }

    /// Calls `handler` with every move of the purchase flow.
    ///
    /// - Parameter handler: Called with each change.
    /// - Returns: A token that keeps the observer registered.
    public func observeFlow(
        _ handler: @escaping @Sendable (StoreChange<PurchaseFlowState>) -> Void
    ) -> ObservationToken {
        flow.observe(handler)
    }

    // MARK: Internals

    private func move(to next: PurchaseFlowState) throws(PurchaseError) {
        try flow.update { (state: inout PurchaseFlowState) throws(PurchaseError) in
            guard state.canMove(to: next) else { throw .busy(state) }
            state = next
        }
    }

    /// Checks, before a payment is taken, that the ledger can credit it: under the ledger's
    /// lock, from the document on disk, without changing it.
    ///
    /// Throws ``PurchaseError/notRecorded(_:)`` for any problem the storage reports —
    /// a document that is not the library's or not the user's, a lock file that is not a file,
    /// a document this version may not write — and ``PurchaseError/failed(reason:)`` when
    /// ``PurchaseLedger/unfinishedReceiptIDLimit`` credited receipts still wait for the
    /// backend to finish them. A lock held by another process is not a problem: waiting cures
    /// it, so the purchase goes ahead and is credited when the lock is free — once the document
    /// itself, read without the lock, shows nothing that waiting does not cure (another user's
    /// file, another program's, a newer version's, one that can't be read).
    private func checkLedgerCanCredit() throws(PurchaseError) {
        let checked: StorageUpdate<PurchaseLedger, Bool>?
        do {
            checked = try storage.updateIfAvailable(PurchaseDocuments.ledger) { ledger in
                ledger.unfinishedReceiptIDs.count >= PurchaseLedger.unfinishedReceiptIDLimit
            }
        } catch {
            guard case .lockTimedOut = error else { throw .notRecorded(error) }
            checked = nil  // another process is writing it
        }
        guard let checked else { return try checkLedgerReadableWhileHeld() }
        if let problem = checked.recovery { reportIssue(.storageRecovered(problem)) }
        let full = checked.outcome
        if full == true {
            throw .failed(
                reason:
                    "\(PurchaseLedger.unfinishedReceiptIDLimit) earlier purchases are credited but the payment system has not confirmed them yet"
            )
        }
    }

    /// The check of ``checkLedgerCanCredit()`` while another process holds the ledger's lock:
    /// the document as it is on disk, read without the lock, must be one this store may write.
    private func checkLedgerReadableWhileHeld() throws(PurchaseError) {
        let loaded: StorageLoad<PurchaseLedger>
        do {
            loaded = try storage.load(PurchaseDocuments.ledger)
        } catch {
            throw .notRecorded(error)
        }
        guard let problem = loaded.recovery else { return }
        if problem.refusesWrites { throw .notRecorded(problem) }
        if case .keepAsideFailed = problem { throw .notRecorded(problem) }  // not the library's file
    }

    /// Adds the receipts the ledger does not have yet, and the backend's pending ones; returns
    /// how many of `receipts` were added. The backend then finishes every one of them the
    /// ledger holds.
    ///
    /// A list the backend gave is credited only to the ledger it was asked after: when another
    /// process changed the ledger in between, it may have credited and finished some of the
    /// receipts listed, and the ledger may have let go of their ids since (see
    /// ``PurchaseLedger/isSameVersion(as:)``). Then the pending receipts wait for a later credit,
    /// and receipts not just paid for are not added at all.
    ///
    /// - Parameters:
    ///   - receipts: The receipts to add, oldest first.
    ///   - paid: Whether `receipts` were just paid for: they are credited even when the
    ///     ledger already holds ``PurchaseLedger/unfinishedReceiptIDLimit`` unfinished receipts,
    ///     and even when another process changed the ledger since `before` (a receipt is
    ///     forgotten only once 256 newer ones are credited, and these are the newest).
    ///   - before: The ledger as it was read before the backend was asked for `receipts`.
    /// - Returns: How many of `receipts` were added; `nil`, with nothing changed, when they were
    ///   not paid for just now and another process changed the ledger since `before`: ask the
    ///   backend again.
    private func record(
        _ receipts: [PurchaseReceipt], paid: Bool, readBefore before: PurchaseLedger
    ) throws(PurchaseError) -> Int? {
        // Pending receipts ride along (one whose credit failed earlier, say); a backend that
        // can't list them now is asked again at the next launch.
        let listed = try? backend.pendingReceipts()
        let given = Set(receipts.map(\.id))
        let pending = (listed ?? []).filter { !given.contains($0.id) }
        // Ids `before` held unfinished that the backend no longer lists were finished: so they
        // stay, whatever another process wrote since.
        let finished = listed.map { PurchaseLedger.finishedReceiptIDs(seen: before.unfinishedReceiptIDs, pending: $0) } ?? []
        let recorded = try ledgerUpdate { ledger -> (credited: [PurchaseReceipt], held: Set<String>)? in
            let fresh = ledger.isSameVersion(as: before)
            guard fresh || paid else { return nil }
            // Older ones first, in the backend's order.
            let credited = ledger.credit(
                (fresh ? pending : []) + receipts, beyondLimit: paid ? receipts.count : 0, finished: finished)
            return (credited, ledger.receiptIDs)
        }
        guard let recorded else { return nil }
        finish((pending + receipts).filter { recorded.held.contains($0.id) })
        return recorded.credited.filter { given.contains($0.id) }.count
    }

    /// Tells the backend that `receipts` are in the ledger; returns whether it could. A failure
    /// leaves them pending, and they are finished at a later launch (the ledger keeps their ids
    /// meanwhile, see `unfinishedReceiptIDs`): nothing to report.
    @discardableResult
    private func finish(_ receipts: [PurchaseReceipt]) -> Bool {
        guard !receipts.isEmpty else { return true }
        do {
            try backend.finish(receipts)
            return true
        } catch {
            return false
        }
    }

    /// How many times one launch credits a batch of pending receipts and finishes it, when more
    /// are pending than the ledger keeps unfinished at once.
    private static let creditRounds = 64

    /// Credits the receipts the backend holds that the ledger lacks (a purchase killed between
    /// payment and credit); problems are reported.
    ///
    /// Never waits: when another process holds the ledger's lock (it may be stopped), the
    /// receipts are left for a later launch, and the store shows the ledger as last committed.
    /// The backend is asked before the lock is taken. Receipts are credited in batches the
    /// ledger can keep unfinished (see ``PurchaseLedger/unfinishedReceiptIDLimit``), each
    /// finished before the next is credited; a finish that fails ends the launch's crediting.
    /// A list is credited only to the ledger it was asked after (see
    /// ``PurchaseLedger/isSameVersion(as:)``): when another process wrote the ledger in between,
    /// the backend is asked again.
    private func creditPendingReceipts() {
        for _ in 0..<Self.creditRounds {
            let before = ledger.state  // read before the backend is asked
            let pending: [PurchaseReceipt]
            do {
                pending = try backend.pendingReceipts()
            } catch {
                if case .storage(let problem) = error { reportIssue(.storageRecovered(problem)) }
                return
            }
            guard !pending.isEmpty else { return }
            let known = before.receiptIDs
            guard pending.contains(where: { !known.contains($0.id) }) else {
                finish(pending)  // credited by a process killed before it finished them
                return
            }
            let held: Set<String>
            do {
                let finished = PurchaseLedger.finishedReceiptIDs(seen: before.unfinishedReceiptIDs, pending: pending)
                let committed = try ledger.updateIfAvailable { ledger -> Set<String>? in
                    // Another process changed the ledger since the list was asked for: it may
                    // have credited, finished and forgotten some of it. Asked for again.
                    guard ledger.isSameVersion(as: before) else { return nil }
                    _ = ledger.credit(pending, finished: finished)
                    return ledger.receiptIDs
                }
                // `nil` when another process holds the lock: the receipts stay pending.
                guard let committed else { return }
                guard let committed else { continue }
                held = committed
            } catch {
                reportIssue(.storageRecovered(error))
                return
            }
            let credited = pending.filter { held.contains($0.id) }
            // All credited, or a finish that failed: the rest waits for a later launch.
            guard finish(credited), credited.count < pending.count else { return }
        }
    }

    /// Makes the in-memory ledger what is on disk, and posts the change.
    private func adoptLedgerFromDisk() {
        do {
            try ledger.reload()
        } catch {
            reportIssue(.storageRecovered(error))
        }
    }

    private func ledgerUpdate<Result>(_ body: (inout PurchaseLedger) -> Result) throws(PurchaseError) -> Result {
        do {
            return try ledger.update(body)
        } catch {
            throw .storage(error)
        }
    }
}
