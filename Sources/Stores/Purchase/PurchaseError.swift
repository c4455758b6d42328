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
    /// Nothing was bought and nothing was charged: the purchase could not be recorded. Either
    /// the purchase ledger can't be written for a reason waiting will not cure (a file that is
    /// not the app's in its place, another user's file, a lock file that is not a file, a ledger
    /// this version may not write), checked before the payment is asked for; or
    /// ``LocalPurchaseBackend`` could not write its receipt. The `StorageError` names the file
    /// and says what to do.
    case notRecorded(StorageError)
    /// The purchase was paid for and its receipt recorded, but the ledger could not be written
    /// to credit it (another process held its lock, the disk is full…). It is credited when the
    /// purchases store is free: at the next launch, purchase or restore. Buying again would buy
    /// again.
    case notYetCredited(PurchaseReceipt, reason: StorageError)

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
        case .notRecorded(let error):
            "Nothing was bought and nothing was charged: the purchase could not be recorded. \(error)"
        case .notYetCredited(let receipt, let reason):
            "Bought \(receipt.product): the purchase is recorded, but \(Self.why(reason)). "
                + "It will be credited when the purchases store is free (the next time the app starts, buys or restores); "
                + "do not buy it again."
        }
    }

    /// Why a receipt could not be credited, in a clause.
    private static func why(_ reason: StorageError) -> String {
        switch reason {
        case .lockTimedOut(let file, let holder, _):
            "it could not be credited yet: the purchases store is "
                + (StorageError.isTemporaryFile(file) ? "being written by" : "held by") + " another process"
                + (holder.map { " (pid \($0))" } ?? "")
        default:
            "it could not be credited yet: " + Self.clause(reason.errorDescription ?? reason.description)
        }
    }
}

extension PurchaseError {
    /// `sentence` as a clause: its first letter in lower case, without its closing period.
    fileprivate static func clause(_ sentence: String) -> String {
        let trimmed = sentence.trimmingSuffix(".")
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }
}

extension String {
    /// The string without the trailing run of `character`.
    fileprivate func trimmingSuffix(_ character: Character) -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == character { end = index(before: end) }
        return self[..<end]
    }
}
