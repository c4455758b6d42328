import Foundation
import SingletonStores
import Timers

/// The production backend of this package: approves every purchase at once and keeps the
/// receipts as the `receipts` document, so restores work across runs of the CLI.
///
/// ```swift
/// let purchases = PurchaseManager(backend: LocalPurchaseBackend(storage: FileStorage()))
/// try await purchases.buy(.boostItems(3))
/// ```
public struct LocalPurchaseBackend: PurchaseBackend {
    private let storage: any StoreStorage
    private let wallClock: WallClock

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
            try storage.update([PurchaseReceipt].self, forKey: "receipts", default: []) { $0.append(receipt) }
        } catch {
            throw .storage(error)
        }
        return .purchased(receipt)
    }

    /// Every receipt recorded so far.
    public func restore() async throws(PurchaseError) -> [PurchaseReceipt] {
        try pendingReceipts()
    }

    /// Every receipt recorded so far: the ones already credited are skipped by the ledger.
    public func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] {
        do {
            return try storage.load([PurchaseReceipt].self, forKey: "receipts", default: []).value
        } catch {
            throw .storage(error)
        }
    }
}
