import Foundation

/// Everything bought and used, as an append-only list. Counts are derived from it, never stored.
///
/// ```swift
/// var ledger = PurchaseLedger()
/// ledger.append(.boostItemsBought(3), at: now)
/// ledger.append(.boostItemUsed, at: now)
/// ledger.boostItems           // 2
/// ```
public struct PurchaseLedger: Sendable, Codable, Equatable {
    /// The entries, oldest first.
    public private(set) var entries: [LedgerEntry] = []

    /// An empty ledger.
    public init() {}

    /// Appends an entry.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - date: When, on the wall clock.
    ///   - receiptID: The purchase backend's receipt, for purchases.
    public mutating func append(_ kind: LedgerEntry.Kind, at date: Date, receiptID: String? = nil) {
        entries.append(LedgerEntry(kind: kind, date: date, receiptID: receiptID))
    }

    /// The boost items owned: bought, less used, plus refunded. Never negative.
    public var boostItems: Int {
        max(0, entries.reduce(0) { count, entry in
            switch entry.kind {
            case .boostItemsBought(let bought): count + bought
            case .boostItemUsed: count - 1
            case .boostItemRefunded: count + 1
            case .premiumBought: count
            }
        })
    }

    /// When premium ends: each premium purchase adds its days to whatever premium time was left
    /// when it was bought. `nil` if premium was never bought.
    public var premiumExpiry: Date? {
        entries.reduce(nil as Date?) { expiry, entry in
            guard case .premiumBought(let days) = entry.kind else { return expiry }
            let start = max(entry.date, expiry ?? entry.date)
            return start.addingTimeInterval(TimeInterval(max(days, 0)) * 86_400)
        }
    }

    /// The receipt ids already recorded.
    public var receiptIDs: Set<String> {
        Set(entries.compactMap(\.receiptID))
    }
}

/// One line of the ``PurchaseLedger``.
public struct LedgerEntry: Sendable, Codable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Codable, Equatable {
        /// Boost items were bought.
        case boostItemsBought(Int)
        /// One boost item was used to start a boost.
        case boostItemUsed
        /// A used item was given back because its boost could not start.
        case boostItemRefunded
        /// Premium was bought for this many days.
        case premiumBought(days: Int)
    }

    /// What happened.
    public var kind: Kind
    /// When, on the wall clock.
    public var date: Date
    /// The purchase backend's receipt id, for purchases.
    public var receiptID: String?
}

extension PurchaseProduct {
    /// The ledger entry a purchase of this product adds.
    var ledgerKind: LedgerEntry.Kind {
        switch self {
        case .boostItems(let count): .boostItemsBought(count)
        case .premium(let days): .premiumBought(days: days)
        }
    }
}
