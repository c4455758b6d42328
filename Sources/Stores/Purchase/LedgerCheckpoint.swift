import Foundation

/// What a compacted ``PurchaseLedger`` keeps of the entries it folded away: the totals they add
/// up to, the newest boost grant among them, and the receipt ids of the newest purchases.
///
/// ```swift
/// var ledger = PurchaseLedger()
/// ledger.append(.boostItemsBought(3), at: now, receiptID: "r-1")
/// ledger.append(.boostItemUsed, at: now)
/// ledger.compact(keepingLast: 0)
/// let folded = ledger.checkpoint?.entryCount   // 2
/// let recent = ledger.entries                  // []
/// let items = ledger.boostItems                // 2, as before
/// ```
///
/// Every count derived from the ledger is the checkpoint's total carried on through the
/// ``PurchaseLedger/entries`` after it, so it equals what the whole history would give. Only
/// ``PurchaseLedger/receiptIDs`` forgets: it keeps the ids of the newest
/// ``PurchaseLedger/retainedReceiptIDCount`` purchases, enough to credit every receipt a
/// backend may present again exactly once (see ``PurchaseBackend``).
///
/// On disk, beside the entries that follow it:
///
/// ```json
/// "checkpoint" : {
///   "boostItemBalance" : 2,
///   "entryCount" : 2,
///   "premiumExpiry" : "2025-06-09T09:53:20Z",
///   "receiptIDs" : [ "r-1" ]
/// }
/// ```
///
/// Decoding range-checks every field: a negative ``entryCount``, a ``boostItemBalance`` its
/// entries cannot add up to (below minus ``entryCount``, or above ``entryCount`` times
/// ``PurchaseProduct/boostItemLimit``'s most), a date a ledger entry may not
/// hold (see ``LedgerEntry/init(from:)``), more than ``maximumStoredReceiptIDs`` ids or an id longer than 200 characters
/// make the document invalid, and the storage keeps it aside.
package struct LedgerCheckpoint: Sendable, Codable, Equatable {
    /// How many entries were folded into the checkpoint, over all compactions.
    package internal(set) var entryCount: Int
    /// Boost items bought, less used, plus refunded, over the folded entries. It may be below
    /// zero in a history written by earlier versions; ``PurchaseLedger/boostItems`` never is.
    package internal(set) var boostItemBalance: Int
    /// When premium ends after the folded entries; `nil` if none of them bought premium.
    package internal(set) var premiumExpiry: Date?
    /// The newest boost grant among the folded entries.
    package internal(set) var latestBoostGrant: BoostGrant?
    /// The receipt ids of the newest folded purchases, oldest first; at most
    /// ``PurchaseLedger/retainedReceiptIDCount``.
    package internal(set) var receiptIDs: [String]

    /// The most receipt ids a stored checkpoint may hold; more make the document invalid.
    package static let maximumStoredReceiptIDs = 10_000

    /// A checkpoint of no entries.
    init() {
        entryCount = 0
        boostItemBalance = 0
        premiumExpiry = nil
        latestBoostGrant = nil
        receiptIDs = []
    }

    /// Folds `entry` in: the totals move on by it, its receipt id is remembered (the oldest is
    /// forgotten beyond ``PurchaseLedger/retainedReceiptIDCount``).
    mutating func fold(_ entry: LedgerEntry) {
        entryCount = entryCount.saturatingAdding(1)
        var totals = LedgerTotals(
            boostItemBalance: boostItemBalance, premiumExpiry: premiumExpiry, latestBoostGrant: latestBoostGrant)
        totals.add(entry)
        (boostItemBalance, premiumExpiry, latestBoostGrant) = (
            totals.boostItemBalance, totals.premiumExpiry, totals.latestBoostGrant
        )
        if let id = entry.receiptID { receiptIDs.append(id) }
        // Folding a long history forgets as it goes, so it never holds all of its ids at once.
        if receiptIDs.count > 2 * PurchaseLedger.retainedReceiptIDCount {
            trimReceiptIDs(to: PurchaseLedger.retainedReceiptIDCount)
        }
    }

    /// Forgets the oldest receipt ids beyond `limit`.
    mutating func trimReceiptIDs(to limit: Int) {
        if receiptIDs.count > limit { receiptIDs.removeFirst(receiptIDs.count - limit) }
    }

    private enum CodingKeys: String, CodingKey {
        case entryCount, boostItemBalance, premiumExpiry, latestBoostGrant, receiptIDs
    }

    /// Decodes a checkpoint and range-checks it (see the type's documentation).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entryCount = try container.decode(Int.self, forKey: .entryCount)
        boostItemBalance = try container.decode(Int.self, forKey: .boostItemBalance)
        premiumExpiry = try container.decodeIfPresent(Date.self, forKey: .premiumExpiry)
        latestBoostGrant = try container.decodeIfPresent(BoostGrant.self, forKey: .latestBoostGrant)
        receiptIDs = try container.decodeIfPresent([String].self, forKey: .receiptIDs) ?? []
        guard entryCount >= 0 else {
            throw Self.outOfRange(.entryCount, in: container, "\(entryCount) entries is below zero")
        }
        guard Self.balanceRange(entryCount: entryCount).contains(boostItemBalance) else {
            throw Self.outOfRange(
                .boostItemBalance, in: container,
                "a balance of \(boostItemBalance) boost items is not what \(entryCount) entries can add up to")
        }
        if let premiumExpiry, !StoredDate.isPlausible(premiumExpiry) {
            throw Self.outOfRange(.premiumExpiry, in: container, "the end of premium is not a date a ledger entry may hold")
        }
        if let grant = latestBoostGrant, !StoredDate.isPlausible(grant.endDate) || grant.id.count > 200 {
            throw Self.outOfRange(
                .latestBoostGrant, in: container, "the boost's end is not a date a ledger entry may hold, or its id is too long")
        }
        guard receiptIDs.count <= Self.maximumStoredReceiptIDs else {
            throw Self.outOfRange(
                .receiptIDs, in: container, "\(receiptIDs.count) receipt ids is more than \(Self.maximumStoredReceiptIDs)")
        }
        if receiptIDs.contains(where: { $0.count > 200 }) {
            throw Self.outOfRange(.receiptIDs, in: container, "a receipt id is longer than 200 characters")
        }
    }

    /// The balances `entryCount` entries can add up to: each one buys at most
    /// ``PurchaseProduct/boostItemLimit`` items, or uses or gives back one.
    static func balanceRange(entryCount: Int) -> ClosedRange<Int> {
        let (most, overflow) = entryCount.multipliedReportingOverflow(by: PurchaseProduct.boostItemLimit.upperBound)
        return -entryCount...(overflow ? .max : most)
    }

    /// Encodes the checkpoint; absent fields (no premium, no grant) are left out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entryCount, forKey: .entryCount)
        try container.encode(boostItemBalance, forKey: .boostItemBalance)
        try container.encodeIfPresent(premiumExpiry, forKey: .premiumExpiry)
        try container.encodeIfPresent(latestBoostGrant, forKey: .latestBoostGrant)
        try container.encode(receiptIDs, forKey: .receiptIDs)
    }

    private static func outOfRange(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>, _ message: String
    ) -> DecodingError {
        .dataCorruptedError(forKey: key, in: container, debugDescription: message)
    }
}

/// The totals a ledger derives, carried from entry to entry: the one place that says what an
/// entry adds, so that a checkpoint and the entries after it give what the whole history gives.
struct LedgerTotals {
    /// Bought, less used, plus refunded; saturating, not clamped at zero until it is read.
    var boostItemBalance = 0
    /// When premium ends so far.
    var premiumExpiry: Date?
    /// The newest grant so far.
    var latestBoostGrant: BoostGrant?

    /// The totals of `checkpoint`, or of nothing.
    init(from checkpoint: LedgerCheckpoint?) {
        boostItemBalance = checkpoint?.boostItemBalance ?? 0
        premiumExpiry = checkpoint?.premiumExpiry
        latestBoostGrant = checkpoint?.latestBoostGrant
    }

    init(boostItemBalance: Int, premiumExpiry: Date?, latestBoostGrant: BoostGrant?) {
        self.boostItemBalance = boostItemBalance
        self.premiumExpiry = premiumExpiry
        self.latestBoostGrant = latestBoostGrant
    }

    /// Moves the totals on by `entry`.
    mutating func add(_ entry: LedgerEntry) {
        switch entry.kind {
        case .boostItemsBought(let bought): boostItemBalance = boostItemBalance.saturatingAdding(max(bought, 0))
        case .boostItemUsed:
            boostItemBalance = boostItemBalance.saturatingAdding(-1)
            if let grant = entry.boost { latestBoostGrant = grant }
        case .boostItemRefunded: boostItemBalance = boostItemBalance.saturatingAdding(1)
        case .premiumBought(let days):
            let start = max(entry.date, premiumExpiry ?? entry.date)
            premiumExpiry = min(start.addingTimeInterval(TimeInterval(max(days, 0)) * 86_400), .distantFuture)
        }
    }
}
