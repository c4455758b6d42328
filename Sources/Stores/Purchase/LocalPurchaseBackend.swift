import Foundation
import SingletonStores
import Timers

/// The production backend of this package: approves every purchase at once and keeps the
/// receipts as the `receipts` document, so restores work across runs of the CLI.
///
/// The document keeps the newest ``retainedReceiptCount`` receipts, so a launch, which reads
/// them all to credit any the ledger lacks, costs the same however many purchases came before;
/// a restore brings back those receipts. A longer document written by an earlier version is
/// cut down on the next purchase.
///
/// ```swift
/// let purchases = PurchaseManager(backend: LocalPurchaseBackend(storage: FileStorage()))
/// try await purchases.buy(.boostItems(3))
/// ```
public struct LocalPurchaseBackend: PurchaseBackend {
    private let storage: any StoreStorage
    private let wallClock: WallClock

    /// How many of the newest receipts the `receipts` document keeps: far fewer than the
    /// ``PurchaseLedger/retainedReceiptIDCount`` ids a ledger remembers, so every receipt this
    /// backend returns that was already credited is recognised.
    public static let retainedReceiptCount = 64

    /// Creates the backend.
    ///
    /// - Parameters:
    ///   - storage: Where the `receipts` document lives.
    ///   - wallClock: Dates the receipts.
    public init(storage: any StoreStorage = FileStorage(), wallClock: WallClock = .system) {
        self.storage = storage
        self.wallClock = wallClock
    }

    /// Records a receipt for `product` and returns it.
    public func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        guard product.isWithinLimits else { throw .invalidProduct(product) }
        let receipt = PurchaseReceipt(id: UUID().uuidString, product: product, date: wallClock.now())
        do {
            try storage.update(
                [PurchaseReceipt].self, forKey: Self.key, default: [], migrations: PurchaseDocumentMigrations.receipts
            ) { receipts in
                LedgerDecoding.count(receipts: receipts.count)
                receipts.append(receipt)
                receipts.removeFirst(max(receipts.count - Self.retainedReceiptCount, 0))
            }
        } catch {
            throw .storage(error)
        }
        return .purchased(receipt)
    }

    /// The newest ``retainedReceiptCount`` receipts.
    public func restore() async throws(PurchaseError) -> [PurchaseReceipt] {
        try pendingReceipts()
    }

    /// The newest ``retainedReceiptCount`` receipts: the ones already credited are skipped by
    /// the ledger. A longer document, written by an earlier version, is cut down to them here,
    /// once, so later launches read only those.
    public func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] {
        do {
            var receipts = try storage.load(
                [PurchaseReceipt].self, forKey: Self.key, default: [], migrations: PurchaseDocumentMigrations.receipts
            ).value
            LedgerDecoding.count(receipts: receipts.count)
            if receipts.count > Self.retainedReceiptCount {
                receipts = try storage.update(
                    [PurchaseReceipt].self, forKey: Self.key, default: [], migrations: PurchaseDocumentMigrations.receipts
                ) { receipts in
                    receipts.removeFirst(max(receipts.count - Self.retainedReceiptCount, 0))
                }.value
            }
            return receipts
        } catch {
            throw .storage(error)
        }
    }

    /// The receipts' document key.
    static let key = "receipts"
}
