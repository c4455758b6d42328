import Foundation

/// The payment side of a purchase: asks for payment and returns a receipt, or says the user
/// cancelled; lists earlier receipts for a restore.
///
/// ``LocalPurchaseBackend`` approves every purchase and keeps its receipts on disk (the demo and
/// the CLI use it); ``ScriptedPurchaseBackend`` plays back outcomes for tests. A real app
/// conforms its payment SDK to this protocol.
public protocol PurchaseBackend: Sendable {
    /// Asks for payment for `product`.
    ///
    /// - Returns: ``PurchaseOutcome/purchased(_:)`` with the receipt, or
    ///   ``PurchaseOutcome/cancelled`` if the user cancelled.
    /// - Throws: ``PurchaseError/failed(reason:)`` when the payment failed.
    func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome

    /// Every receipt of this user, for restoring purchases on a new install.
    func restore() async throws(PurchaseError) -> [PurchaseReceipt]
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
}
