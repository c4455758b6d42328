import Foundation
@testable import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import Stores
import Testing
import Timers

/// What a purchase reports when its receipt is recorded but the ledger write that credits it
/// fails (a full disk at the ledger's write), what a boost reports when its own record fails
/// after the item was spent, and that neither loses or doubles anything.
@Suite("Purchases and boosts whose second write fails")
struct PurchaseCreditTests {
    /// Problems reported by the stores.
    final class Issues: Sendable {
        private let all = Locked<[String]>([])
        func append(_ issue: StoreIssue) { all.withLock { $0.append("\(issue)") } }
        var descriptions: [String] { all.withLock { $0 } }
    }

    private static func purchases(
        folder: URL, wall: ManualWallClock, boost: (any BoostTimeManagerContract)? = nil, issues: Issues = Issues()
    ) -> PurchaseManager {
        PurchaseManager(
            storage: FileStorage(folder: folder), wallClock: wall.wallClock, boost: boost, center: NotificationCenter(),
            watching: .off, reportIssue: { issues.append($0) })
    }

    /// Buys `product` with the receipt's write going through and the ledger's failing
    /// (`ENOSPC`); returns what the purchase threw.
    private static func buyWithTheLedgerWriteFailing(
        _ product: PurchaseProduct, _ purchases: PurchaseManager
    ) async -> PurchaseError? {
        // The first flush (the receipt's) goes through, the second (the ledger's) finds the disk
        // full: whether the ledger is written the rename way or in place, it is not written.
        let faults = FileFaults([.fsync: [0, ENOSPC]])
        do {
            try await FileFaults.$current.withValue(faults) {
                _ = try await purchases.buy(product)
            }
        } catch let error as PurchaseError {
            #expect(faults.isUsedUp)
            return error
        } catch {
            Issue.record("\(error)")
        }
        return nil
    }

    /// A purchase recorded while another process was writing the purchases store (found by
    /// its unfinished temporary file, its lock file having been removed) says that, not that
    /// the store's lock is held.
    @Test func aPurchaseStoppedByAnotherProcesssWriteSaysItIsBeingWritten() {
        let receipt = PurchaseReceipt(id: "r1", product: .boostItems(7), date: Date(timeIntervalSince1970: 0))
        let written = PurchaseError.notYetCredited(
            receipt,
            reason: .lockTimedOut(
                file: URL(filePath: "/data/purchases~42-0123456789abcdef0123456789abcdef.tmp"), holder: 42, waited: .seconds(1)))
        let held = PurchaseError.notYetCredited(
            receipt, reason: .lockTimedOut(file: URL(filePath: "/data/purchases.lock"), holder: 42, waited: .seconds(1)))
        #expect(written.description.contains("the purchases store is being written by another process (pid 42)"))
        #expect(!written.description.contains("held by"))
        #expect(held.description.contains("the purchases store is held by another process (pid 42)"))
        #expect(written.description.contains("do not buy it again") && held.description.contains("do not buy it again"))
    }

    @Test func aPurchaseWhoseLedgerWriteFailsSaysItIsRecordedAndIsCreditedOnce() async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let purchases = Self.purchases(folder: folder, wall: wall)
            // The receipt's write goes through; the ledger's finds the disk full — 70
            // times, more than the 64 credited receipts the backend keeps.
            for number in 1...70 {
                let product = PurchaseProduct.boostItems(number == 1 ? 7 : 1)
                let error = await Self.buyWithTheLedgerWriteFailing(product, purchases)
                guard case .notYetCredited(let receipt, .writeFailed)? = error else {
                    Issue.record("purchase \(number): \(String(describing: error))")
                    continue
                }
                #expect(receipt.product == product)
                let said = error?.description ?? ""
                #expect(!said.localizedCaseInsensitiveContains("try again"), "\(said)")
                #expect(said.contains("the purchase is recorded"), "\(said)")
                purchases.acknowledge()
            }
            #expect(purchases.ownedBoostItems == 0)

            // The next launch credits every one of them once; later launches credit nothing.
            #expect(Self.purchases(folder: folder, wall: wall).ownedBoostItems == 76)
            #expect(Self.purchases(folder: folder, wall: wall).ownedBoostItems == 76)
            let next = Self.purchases(folder: folder, wall: wall)
            try await next.buy(.boostItems(1))
            #expect(next.ownedBoostItems == 77)
            #expect(Self.purchases(folder: folder, wall: wall).ownedBoostItems == 77)
        }
    }

    @Test func aPurchaseWhoseLedgerWriteFailsIsCreditedByTheNextPurchase() async throws {
        try await withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let purchases = Self.purchases(folder: folder, wall: wall)
            let error = await Self.buyWithTheLedgerWriteFailing(.boostItems(3), purchases)
            #expect(error.map { if case .notYetCredited = $0 { true } else { false } } == true, "\(String(describing: error))")
            purchases.acknowledge()
            try await purchases.buy(.boostItems(4))
            #expect(purchases.ownedBoostItems == 7)
            #expect(Self.purchases(folder: folder, wall: wall).ownedBoostItems == 7)
        }
    }
}
