import Foundation
@testable import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
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
