import Foundation
@testable import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import Synchronization
import Stores
import Testing
import Timers

/// Each receipt is credited exactly once: however many are waiting (more than the ids a
/// ledger remembers), whichever write fails after the ledger's, and however often a backend
/// reports one receipt.
@Suite("A receipt is credited once")
struct ReceiptCreditedOnceTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private static func purchases(folder: URL, backend: (any PurchaseBackend)? = nil) -> PurchaseManager {
        let wall = ManualWallClock(now: start)
        return PurchaseManager(
            backend: backend, storage: FileStorage(folder: folder), wallClock: wall.wallClock, center: NotificationCenter(),
            watching: .off, reportIssue: { _ in })
    }

    /// Records `count` purchases of one item with the local backend, none credited: what a
    /// long-held ledger lock leaves behind.
    private static func leavePending(_ count: Int, in folder: URL) async throws {
        let backend = LocalPurchaseBackend(storage: FileStorage(folder: folder), wallClock: ManualWallClock(now: start).wallClock)
        for _ in 0..<count { _ = try await backend.purchase(.boostItems(1)) }
        #expect(try backend.pendingReceipts().count == count)
    }

    /// 400 purchases waiting (more than the 256 + 64 ids a ledger remembers); a launch credits
    /// them, and the backend's write that marks them credited fails (`ENOSPC` at its rename),
    /// `failedLaunches` times in a row. The ledger has every one of them once, then and at every
    /// later launch.
    @Test(arguments: [1, 2])
    func manyPendingReceiptsWhoseFinishFailsAreCreditedOnce(failedLaunches: Int) async throws {
        try await withTemporaryFolder { folder in
            try await Self.leavePending(400, in: folder)
            for _ in 0..<failedLaunches {
                // The ledger's rename goes through, the receipts' fails.
                let faults = FileFaults([.rename: [0, ENOSPC]])
                let launch = FileFaults.$current.withValue(faults) { Self.purchases(folder: folder) }
                #expect(launch.ownedBoostItems == 400)
            }
            #expect(Self.purchases(folder: folder).ownedBoostItems == 400)
            #expect(Self.purchases(folder: folder).ownedBoostItems == 400)
            let backend = LocalPurchaseBackend(storage: FileStorage(folder: folder))
            #expect(try backend.pendingReceipts().isEmpty)
        }
    }

    /// The same pile-up, then purchases while the backend still can't mark receipts credited:
    /// each purchase credits its own receipt, and none of the older ones again.
    @Test func purchasesAfterAFailedFinishCreditNoOlderReceiptAgain() async throws {
        try await withTemporaryFolder { folder in
            try await Self.leavePending(400, in: folder)
            let faults = FileFaults([.rename: [0, ENOSPC]])
            _ = FileFaults.$current.withValue(faults) { Self.purchases(folder: folder) }
            let purchases = Self.purchases(
                folder: folder, backend: FailingFinishBackend(LocalPurchaseBackend(storage: FileStorage(folder: folder))))
            for _ in 0..<300 {
                try await purchases.buy(.boostItems(1))
                purchases.acknowledge()
            }
            #expect(purchases.ownedBoostItems == 700)
            #expect(Self.purchases(folder: folder).ownedBoostItems == 700)
            #expect(Self.purchases(folder: folder).ownedBoostItems == 700)
        }
    }

    /// A backend that reports one transaction three times, pending and restored: one credit.
    @Test func aReceiptReportedSeveralTimesIsCreditedOnce() async throws {
        try await withTemporaryFolder { folder in
            let receipt = PurchaseReceipt(id: "r-1", product: .boostItems(5), date: Self.start)
            let backend = RepeatingBackend(pending: [receipt, receipt, receipt], restored: [receipt, receipt])
            let purchases = Self.purchases(folder: folder, backend: backend)
            #expect(purchases.ownedBoostItems == 5)
            let restored = try await purchases.restore()
            #expect(restored == 0)
            #expect(purchases.ownedBoostItems == 5)

            let other = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: other) }
            let fresh = Self.purchases(folder: other, backend: RepeatingBackend(pending: [], restored: [receipt, receipt]))
            let restoredFresh = try await fresh.restore()
            #expect(restoredFresh == 1)
            #expect(fresh.ownedBoostItems == 5)
        }
    }
    /// What another process does between a launch's reading of the pending receipts and its
    /// taking of the ledger's lock: it credits the 400 waiting and finishes them, and a third
    /// credits one purchase more, which lets the ledger forget the oldest of the 400 (finished,
    /// and beyond the ids it remembers).
    private static func creditFinishAndForget(in folder: URL) {
        let other = purchases(folder: folder)
        #expect(other.ownedBoostItems == 400)
        let local = LocalPurchaseBackend(storage: FileStorage(folder: folder))
        let later = PurchaseReceipt(id: "later-1", product: .boostItems(1), date: start)
        let third = purchases(folder: folder, backend: ExtraPendingBackend(base: local, extra: [later]))
        #expect(third.ownedBoostItems == 401)
        #expect(third.purchaseLedger.receiptIDs.count < 401)  // some of the 400 are forgotten
    }

    /// What reads a list of receipts from the backend before it takes the ledger's lock.
    enum StaleReader: CaseIterable, Sendable {
        /// A launch reads the 400 pending receipts.
        case launch
        /// A purchase reads 399 pending with its own receipt, which the other process credits too.
        case purchase
        /// A restore reads the 400 not yet credited.
        case restore
    }

    /// A launch, a purchase or a restore that read 400 receipts before another process
    /// credited, finished and forgot them credits none of them again: the list it read is stale
    /// by the time it holds the ledger's lock. A purchase credits its own receipt once.
    @Test(arguments: StaleReader.allCases)
    func noReceiptIsCreditedFromAListReadBeforeAnotherProcessCreditedIt(reader: StaleReader) async throws {
        try await withTemporaryFolder { folder in
            let local = LocalPurchaseBackend(storage: FileStorage(folder: folder))
            let interleave: @Sendable () -> Void = { Self.creditFinishAndForget(in: folder) }
            let backend: InterleavingBackend
            let reading: PurchaseManager
            switch reader {
            case .launch:
                try await Self.leavePending(400, in: folder)
                backend = InterleavingBackend(base: local, pendingCall: 1, interleave: interleave)
                reading = Self.purchases(folder: folder, backend: backend)
            case .purchase:
                backend = InterleavingBackend(base: local, pendingCall: 2, interleave: interleave)
                reading = Self.purchases(folder: folder, backend: backend)  // the first call: nothing pending
                try await Self.leavePending(399, in: folder)
                try await reading.buy(.boostItems(1))
            case .restore:
                backend = InterleavingBackend(base: local, restoreCall: 1, interleave: interleave)
                reading = Self.purchases(folder: folder, backend: backend)
                try await Self.leavePending(400, in: folder)
                #expect(try await reading.restore() == 0)
            }
            #expect(backend.interleaved)
            #expect(reading.ownedBoostItems == 401)
            #expect(Self.purchases(folder: folder).ownedBoostItems == 401)
        }
    }
}

/// The local backend, with `interleave` run once, just after the `pendingCall`-th list of
/// pending receipts (or the `restoreCall`-th restore) was read: what another process does
/// meanwhile.
private final class InterleavingBackend: PurchaseBackend, Sendable {
    let base: LocalPurchaseBackend
    private let pendingCall: Int
    private let restoreCall: Int
    private let interleave: @Sendable () -> Void
    private let calls = Mutex((pending: 0, restore: 0, done: false))

    init(base: LocalPurchaseBackend, pendingCall: Int = 0, restoreCall: Int = 0, interleave: @escaping @Sendable () -> Void) {
        self.base = base
        self.pendingCall = pendingCall
        self.restoreCall = restoreCall
        self.interleave = interleave
    }

    /// Whether `interleave` ran.
    var interleaved: Bool { calls.withLock { $0.done } }

    private func afterRead(pending: Bool) {
        let due = calls.withLock { calls -> Bool in
            if pending { calls.pending += 1 } else { calls.restore += 1 }
            let due = pending ? calls.pending == pendingCall : calls.restore == restoreCall
            if due { calls.done = true }
            return due
        }
        if due { interleave() }
    }

    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        try await base.purchase(product)
    }
    func restore() async throws(PurchaseError) -> [PurchaseReceipt] {
        let restored = try await base.restore()
        afterRead(pending: false)
        return restored
    }
    func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] {
        let pending = try base.pendingReceipts()
        afterRead(pending: true)
        return pending
    }
    func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError) { try base.finish(receipts) }
}

/// The local backend, with `extra` receipts pending besides its own (never finished).
private struct ExtraPendingBackend: PurchaseBackend {
    let base: LocalPurchaseBackend
    let extra: [PurchaseReceipt]
    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        try await base.purchase(product)
    }
    func restore() async throws(PurchaseError) -> [PurchaseReceipt] { try await base.restore() }
    func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] { try base.pendingReceipts() + extra }
    func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError) { try base.finish(receipts) }
}

/// The local backend, except that marking receipts credited always fails.
private struct FailingFinishBackend: PurchaseBackend {
    let base: LocalPurchaseBackend
    init(_ base: LocalPurchaseBackend) { self.base = base }
    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        try await base.purchase(product)
    }
    func restore() async throws(PurchaseError) -> [PurchaseReceipt] { try await base.restore() }
    func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] { try base.pendingReceipts() }
    func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError) { throw .failed(reason: "the payment system is down") }
}

/// A backend that reports the same receipts again and again, and never finishes them.
private struct RepeatingBackend: PurchaseBackend {
    let pending: [PurchaseReceipt]
    let restored: [PurchaseReceipt]
    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome { .cancelled }
    func restore() async throws(PurchaseError) -> [PurchaseReceipt] { restored }
    func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] { pending }
}
