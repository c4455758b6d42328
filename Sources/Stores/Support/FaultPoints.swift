import SingletonStores

/// The points on the built-in stores' paths that span two documents.
extension FaultInjection.Point {
    /// The boost decided, under its lock, that an item may start it; the item is about to be
    /// spent under the ledger's lock.
    package static let boostItemSpending = Self("boost.item-spending")
    /// A boost item was spent in the ledger on disk; the `boost` record is not yet written.
    package static let boostItemSpent = Self("boost.item-spent")
    /// The backend returned a receipt; the ledger does not credit it yet.
    package static let purchasePaid = Self("purchase.paid")
    /// The ledger credits the purchase; the purchase flow has not moved on yet.
    package static let purchaseCredited = Self("purchase.credited")
}
