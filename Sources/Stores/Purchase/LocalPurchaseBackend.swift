import Foundation
import SingletonStores
import Timers

/// The production backend of this package: approves every purchase at once and keeps the
/// receipts as the `receipts` document, so restores work across runs of the CLI (premium, and
/// any purchase not yet credited: see ``restore()``).
///
/// A receipt is kept until it is credited, however long that takes: a purchase whose credit
/// failed (the ledger's lock held by a stopped process, a full disk) is credited at a later
/// launch, and is never dropped before. ``PurchaseManager`` marks each receipt credited
/// (``finish(_:)``) once its ledger holds it, and the document keeps only the newest 64 of
/// those, for restores, so a launch, which reads the receipts not yet credited, costs the same
/// however many purchases came before. A longer document written by an earlier version is cut
/// down on the next write; its receipts carry no mark, and the newest 64 of them are offered for
/// credit once (the ledger skips those it has).
///
/// ```swift
/// let purchases = PurchaseManager(backend: LocalPurchaseBackend(storage: FileStorage()))
/// try await purchases.buy(.boostItems(3))
/// ```
public struct LocalPurchaseBackend: PurchaseBackend {
    private let storage: any StoreStorage
    private let wallClock: WallClock
    private let reportIssue: @Sendable (StoreIssue) -> Void

    /// How many of the newest credited receipts the `receipts` document keeps (receipts not yet
    /// credited are all kept): far fewer than the ``PurchaseLedger/retainedReceiptIDCount`` ids
    /// a ledger remembers, so every receipt this backend returns that was already credited is
    /// recognised.
    package static let retainedReceiptCount = 64

    /// Creates the backend.
    ///
    /// - Parameters:
    ///   - storage: Where the `receipts` document lives.
    ///   - wallClock: Dates the receipts.
    ///   - reportIssue: Receives a receipt recorded whose flush to the disk could not be
    ///     confirmed (`StoreIssue.storageRecovered(_:)` with `StorageError.notDurable`); prints
    ///     to standard error by default.
    public init(
        storage: any StoreStorage = FileStorage(), wallClock: WallClock = .system,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.storage = storage
        self.wallClock = wallClock
        self.reportIssue = reportIssue
    }

    /// Records a receipt for `product`, not yet credited, and returns it.
    ///
    /// - Throws: ``PurchaseError/notRecorded(_:)`` when the receipt could not be written: then
    ///   nothing was bought. A receipt written whose flush failed (`StorageError.notDurable`) is
    ///   recorded, and others read it: the purchase goes on. The receipts are first written
    ///   again, so that the item is credited on a receipt on disk; when that flush fails too,
    ///   the doubt is reported as an issue.
    public func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        guard product.isWithinLimits else { throw .invalidProduct(product) }
        let receipt = PurchaseReceipt(id: UUID().uuidString, product: product, date: wallClock.now())
        do {
            try storage.update(PurchaseDocuments.storedReceipts) { receipts in
                LedgerDecoding.count(receipts: receipts.count)
                receipts.append(StoredReceipt(receipt, credited: false))
                Self.trim(&receipts)
            }
        } catch {
            // Written, only its flush failed: the receipt is recorded, and is credited as any.
            guard case .notDurable = error else { throw .notRecorded(error) }  // no receipt, no payment
            // After a failed flush, a later one may write nothing of what that one failed to: the
            // receipts are written anew before an item is credited on them, so that a power cut
            // can't leave the credit without its receipt.
            do {
                try storage.rewrite(PurchaseDocuments.storedReceipts)
            } catch {
                reportIssue(.storageRecovered(error))
            }
        }
        return .purchased(receipt)
    }

    /// The receipts a restore may credit: those not yet credited, and the credited premium
    /// ones among the newest 64.
    ///
    /// Boost items are consumed: once credited, a restore never offers them again (as StoreKit
    /// never restores a consumable), so a ledger that was lost or kept aside cannot bring back
    /// items already bought and spent. Premium is offered again: crediting a premium receipt
    /// to a ledger that lacks it gives the same end date it gave before.
    public func restore() async throws(PurchaseError) -> [PurchaseReceipt] {
        do {
            return try storage.load(PurchaseDocuments.storedReceipts).value.filter(\.isRestorable).map(\.receipt)
        } catch {
            throw .storage(error)
        }
    }

    /// The receipts not yet credited: those whose credit failed or was interrupted, and, of a
    /// document an earlier version wrote, its newest 64 (the ledger skips
    /// the ones it has). A longer document is cut down here, once, so later launches read less.
    public func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] {
        do {
            var receipts = try storage.load(PurchaseDocuments.storedReceipts).value
            LedgerDecoding.count(receipts: receipts.count)
            if Self.trimmable(receipts) > 0 {
                receipts = try storage.update(PurchaseDocuments.storedReceipts) { receipts in Self.trim(&receipts) }.value
            }
            return receipts.filter { $0.credited != true }.map(\.receipt)
        } catch {
            throw .storage(error)
        }
    }

    /// Marks `receipts` credited: they are no longer pending, and the oldest credited ones
    /// beyond the newest 64 are forgotten.
    public func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError) {
        let ids = Set(receipts.map(\.id))
        guard !ids.isEmpty else { return }
        do {
            try storage.update(PurchaseDocuments.storedReceipts) { stored in
                for index in stored.indices where ids.contains(stored[index].receipt.id) {
                    stored[index].credited = true
                }
                Self.trim(&stored)
            }
        } catch {
            throw .storage(error)
        }
    }

    /// How many receipts ``trim(_:)`` would forget: credited (or unmarked) ones beyond the
    /// newest ``retainedReceiptCount`` of them. Receipts not yet credited do not count: however
    /// many are waiting, the newest credited ones are kept, for restores.
    private static func trimmable(_ receipts: [StoredReceipt]) -> Int {
        let forgettable = receipts.lazy.filter { $0.credited != false }.count
        return max(forgettable - retainedReceiptCount, 0)
    }

    /// Forgets the oldest credited (or unmarked) receipts while more than
    /// ``retainedReceiptCount`` of them are kept; a receipt not yet credited is never forgotten.
    static func trim(_ receipts: inout [StoredReceipt]) {
        var excess = trimmable(receipts)
        guard excess > 0 else { return }
        receipts.removeAll { receipt in
            guard excess > 0, receipt.credited != false else { return false }
            excess -= 1
            return true
        }
    }

    /// The receipts' document key.
    static let key = "receipts"

    /// The key of the document this backend keeps its receipts in: `receipts`.
    package static var documentKey: String { key }

    /// The receipts in `storage` paid for and not yet credited, read without waiting for a lock
    /// and without writing anything: what removing the `receipts` document would lose.
    ///
    /// - Throws: When the document can't be read (a bad one is moved aside as any read does).
    package static func uncreditedReceipts(in storage: any StoreStorage) throws(StorageError) -> [PurchaseReceipt] {
        try storage.load(PurchaseDocuments.storedReceipts).value.filter { $0.credited == false }.map(\.receipt)
    }
}

/// A receipt as the `receipts` document keeps it: the receipt's fields, and `"credited": true`
/// once its purchase is in the ledger, or `"credited": false` until then.
///
/// A receipt an earlier version wrote carries neither (``credited`` is `nil`): that version
/// credited receipts without marking them, and the ledger skips the ones it has. An earlier
/// version reading this document ignores the mark.
struct StoredReceipt: Codable, Sendable, Equatable {
    /// The receipt.
    var receipt: PurchaseReceipt
    /// Whether its purchase was credited; `nil` when an earlier version wrote it.
    var credited: Bool?

    /// Whether a restore may offer it: not yet credited, or premium (see
    /// ``LocalPurchaseBackend/restore()``).
    var isRestorable: Bool {
        guard credited == true else { return true }
        if case .premium = receipt.product { return true }
        return false
    }

    init(_ receipt: PurchaseReceipt, credited: Bool?) {
        self.receipt = receipt
        self.credited = credited
    }

    private enum CodingKeys: String, CodingKey {
        case id, product, date, credited
    }

    /// Decodes the receipt (range-checked as ``PurchaseReceipt`` is) and its mark.
    init(from decoder: any Decoder) throws {
        receipt = try PurchaseReceipt(from: decoder)
        credited = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .credited)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(receipt.id, forKey: .id)
        try container.encode(receipt.product, forKey: .product)
        try container.encode(receipt.date, forKey: .date)
        try container.encodeIfPresent(credited, forKey: .credited)
    }
}
