import Foundation

/// The payment side of a purchase: asks for payment and returns a receipt, or says the user
/// cancelled; lists earlier receipts for a restore.
///
/// ``LocalPurchaseBackend`` approves every purchase and keeps its receipts on disk (the demo and
/// the CLI use it); ``ScriptedPurchaseBackend`` plays back outcomes for tests. A real app
/// conforms its payment SDK to this protocol.
///
/// A receipt is credited once: ``PurchaseManager`` skips every receipt whose id its ledger
/// remembers (a receipt listed twice counts once), and tells the backend, with ``finish(_:)``,
/// each receipt its ledger holds — as StoreKit's rule goes, a transaction is finished only
/// after its content is delivered. A ledger remembers the ids of its newest 256 purchases
/// (older ones are folded into its checkpoint) and of every receipt it credited that the
/// backend still reports pending, and a ledger that had to be kept aside
/// (unreadable, or written by a newer version) remembers none: so ``pendingReceipts()`` returns
/// only receipts not yet finished, never one that was. ``restore()``, which a user asks for,
/// may return finished ones that can be delivered again without giving anything twice —
/// premium, whose end date a receipt fixes — but, as StoreKit never restores a consumable,
/// no finished purchase of boost items: ``PurchaseManager`` credits those its ledger lacks.
/// ``LocalPurchaseBackend`` keeps every receipt until it is finished, and the newest 64 after
/// that.
public protocol PurchaseBackend: Sendable {
    /// Asks for payment for `product`.
    ///
    /// - Returns: ``PurchaseOutcome/purchased(_:)`` with the receipt, or
    ///   ``PurchaseOutcome/cancelled`` if the user cancelled.
    /// - Throws: ``PurchaseError/failed(reason:)`` when the payment failed.
    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome

    /// Every receipt of this user, for restoring purchases on a new install.
    func restore() async throws(PurchaseError) -> [PurchaseReceipt]

    /// Receipts this backend holds on the device that may not have been credited yet — paid for
    /// just before the app was killed — read without a network request or a prompt.
    ///
    /// ``PurchaseManager`` calls it when it is created and credits every receipt its ledger
    /// lacks, so a purchase interrupted between payment and credit is credited at the next
    /// launch. The default returns none; a payment SDK with unfinished transactions returns
    /// them here.
    func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt]

    /// Marks `receipts` credited: their purchases are in the ledger, so
    /// ``pendingReceipts()`` no longer returns them (a payment SDK finishes the transactions).
    ///
    /// ``PurchaseManager`` calls it after each ledger write that credited receipts, and at
    /// launch for pending receipts its ledger already holds (a process killed between the two).
    /// A failure leaves the receipts pending; the next launch finishes them. The default does
    /// nothing.
    func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError)
}

extension PurchaseBackend {
    /// No receipts held on the device.
    public func pendingReceipts() throws(PurchaseError) -> [PurchaseReceipt] { [] }

    /// Nothing to mark.
    public func finish(_ receipts: [PurchaseReceipt]) throws(PurchaseError) {}
}

/// What a purchase came to, when it did not fail.
public enum PurchaseOutcome: Sendable, Equatable {
    /// Paid; the receipt proves it.
    case purchased(PurchaseReceipt)
    /// The user cancelled; nothing was paid.
    case cancelled
}

/// Proof of one purchase.
public struct PurchaseReceipt: Sendable, Codable, Equatable {
    /// The backend's unique id for the purchase.
    public var id: String
    /// What was bought.
    public var product: PurchaseProduct
    /// When, on the wall clock.
    public var date: Date

    /// Creates a receipt.
    public init(id: String, product: PurchaseProduct, date: Date) {
        self.id = id
        self.product = product
        self.date = date
    }

    private enum CodingKeys: String, CodingKey {
        case id, product, date
    }

    /// Decodes a receipt and range-checks it: the product within its limits, the date within the
    /// years 0000–9999, an id of 1 to 200 characters.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        product = try container.decode(PurchaseProduct.self, forKey: .product)
        date = try container.decode(Date.self, forKey: .date)
        guard product.isWithinLimits else {
            throw DecodingError.dataCorruptedError(
                forKey: .product, in: container, debugDescription: "\(product) is outside the purchase limits")
        }
        guard StoredDate.isPlausible(date) else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: container, debugDescription: "the date is outside \(StoredDate.rangeDescription)")
        }
        guard (1...200).contains(id.count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "the id is empty or longer than 200 characters")
        }
    }
}
