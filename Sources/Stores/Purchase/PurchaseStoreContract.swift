import Foundation
import SingletonStores

/// Purchase state, read from one place by every screen.
///
/// ```swift
/// let purchases = StoreValues.current.purchases
/// if purchases.ownedBoostItems > 0 {
///     try purchases.useBoostItem(duration: 30 * 60)
/// }
/// ```
public protocol PurchaseStoreContract: Sendable {
    /// The boost items owned, derived from the purchase ledger.
    var ownedBoostItems: Int { get }
    /// When premium ends, or `nil` if it was never bought.
    var premiumExpiry: Date? { get }
    /// Whether premium is active now, on the injected wall clock.
    var isPremium: Bool { get }
    /// Where the purchase flow is.
    var flowState: PurchaseFlowState { get }
    /// Buys `product`, moving the flow through purchasing to purchased, failed or cancelled.
    @discardableResult
    func buy(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome
    /// Restores earlier purchases from the backend; returns how many were new.
    @discardableResult
    func restore() async throws(PurchaseError) -> Int
    /// Spends one boost item and starts a boost of `duration` seconds, as one operation.
    func useBoostItem(duration: Int) throws(PurchaseError)
    /// The notification center the store posts its changes to
    /// (``StoreObservation/NotificationChannel/purchaseFlow``, and the production store's
    /// ``StoreObservation/NotificationChannel/purchaseLedger``): a screen that follows purchases
    /// through notifications observes it there.
    var center: NotificationCenter { get }
}

extension PurchaseStoreContract {
    /// `.default`, for a store that posts nothing or posts there.
    public var center: NotificationCenter { .default }
}
