import SingletonStores

/// Why a purchase, a restore or the use of a boost item did not go through.
public enum PurchaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another purchase or restore is running; wait for it to finish.
    case busy(PurchaseFlowState)
    /// The product cannot be bought: the amount is outside ``PurchaseProduct/boostItemLimit``
    /// or ``PurchaseProduct/premiumDayLimit``.
    case invalidProduct(PurchaseProduct)
    /// The payment failed.
    case failed(reason: String)
    /// No boost item is owned.
    case noBoostItems
    /// The boost could not start; the item was not spent.
    case boostNotStarted(BoostError)
    /// The purchase ledger could not be read or written; nothing changed.
    case storage(StorageError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .busy(let state): "A purchase is already in progress (\(state)). Wait for it to finish."
        case .invalidProduct(let product):
            "\(product) cannot be bought: one purchase buys \(PurchaseProduct.boostItemLimit.lowerBound) to \(PurchaseProduct.boostItemLimit.upperBound) boost items or \(PurchaseProduct.premiumDayLimit.lowerBound) to \(PurchaseProduct.premiumDayLimit.upperBound) days of premium."
        case .failed(let reason): "The purchase failed: \(reason). Nothing was charged; try again."
        case .noBoostItems: "You have no boost items. Buy some first (purchase buy)."
        case .boostNotStarted(let error): "The boost did not start, so your item was not spent: \(error)"
        case .storage(let error): "\(error)"
        }
    }
}
