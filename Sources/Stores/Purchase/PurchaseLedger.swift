import Foundation
import SingletonStores

/// Everything bought and used, as an append-only list. Counts are derived from it, never stored.
///
/// ```swift
/// var ledger = PurchaseLedger()
/// ledger.append(.boostItemsBought(3), at: now)
/// ledger.append(.boostItemUsed, at: now)
/// let items = ledger.boostItems   // 2
/// ```
///
/// ## Compaction
/// A long history would make every launch and every purchase read and write all of it, so
/// ``PurchaseManager`` folds the oldest entries into a checkpoint that keeps their totals, in
/// the same locked write that adds an entry, keeping the newest 64 entries: its document stays
/// the same size however many purchases came before, and a crash leaves the old document or the
/// compacted one. Counts are the same with or without a checkpoint; ``receiptIDs`` keeps the
/// ids of the newest 256 purchases.
/// A document written before checkpoints existed — however long, past the 256 MiB a document
/// is read whole up to — is read front to back in bounded memory, its entries folded into a
/// checkpoint as they come, and the compacted ledger written back as soon as its lock is free
/// (on the first launch, a read-only one too): no later launch reads the long history again.
/// A short one (under 64 KiB) loads as it is and is compacted on its next change.
///
/// On disk a ledger with no checkpoint is `{"entries": […]}`, as every version wrote it; a
/// compacted one is `{"checkpoint": {…}, "entriesSinceCheckpoint": […]}`, so that a version
/// that knows no checkpoint finds no `entries` in it and keeps the document aside, instead of
/// reading the recent entries as the whole history and dropping the checkpoint on its next
/// write.
///
/// A ledger read from disk is range-checked entry by entry while it is decoded. An entry that
/// can't be read — a count or a number of days outside ``PurchaseProduct/boostItemLimit`` or
/// ``PurchaseProduct/premiumDayLimit``, a date outside the years 0000–9999, a kind this version
/// does not know — costs nothing else: the other entries load and count, and the unreadable one
/// is kept in the document exactly as it was (see ``unreadableEntries``), never dropped. A
/// document that is not a ledger at all is kept aside by the storage like any damaged file.
/// Sums saturate: no ledger, however long, makes a count overflow.
public struct PurchaseLedger: Sendable, Codable, Equatable {
    /// The entries since the checkpoint, oldest first: the whole history when there is no
    /// checkpoint, and at most the newest 64 once ``PurchaseManager`` has compacted it.
    public private(set) var entries: [LedgerEntry] = []

    /// What the entries folded away by ``compact(keepingLast:)`` add up to; `nil` when no entry
    /// was ever folded.
    package private(set) var checkpoint: LedgerCheckpoint?

    /// How many entries ``PurchaseManager`` keeps after its ``checkpoint`` when it compacts.
    package static let recentEntryLimit = 64

    /// How many receipt ids a compacted ledger remembers: those of its newest purchases. A
    /// receipt a backend presents again must be among them to be recognised (see
    /// ``PurchaseBackend``).
    package static let retainedReceiptIDCount = 256

    /// The entries of the stored document that could not be read, kept as they were so that a
    /// later version (or a person) can still read them, and written back unchanged. They count
    /// for nothing, except that a receipt id found in one is still known (see ``receiptIDs``),
    /// so that receipt is never credited twice.
    public private(set) var unreadableEntries: [UnreadableLedgerEntry] = []

    /// The ids of receipts this ledger credited that the purchase backend may not have marked
    /// finished yet, oldest first: compaction never forgets them, so a backend that presents
    /// such a receipt again — its finish failed, or the app was killed before it — finds it
    /// known however many purchases were credited since (see ``PurchaseBackend``). An id leaves
    /// this list at a later credit, once the backend no longer reports its receipt pending.
    /// Stored as `unreadableEntries` is, beside the entries, only when there are any.
    package private(set) var unfinishedReceiptIDs: [String] = []

    /// The most ids `unfinishedReceiptIDs` holds: receipts waiting beyond it are credited
    /// once earlier ones are finished, and a purchase is refused before it is paid for (a
    /// stored ledger may hold up to ``LedgerCheckpoint/maximumStoredReceiptIDs``, for purchases
    /// made at once in several processes).
    package static let unfinishedReceiptIDLimit = 4_096

    /// An empty ledger.
    public init() {}

    /// A ledger of these parts, as read from a document (see ``PurchaseLedger/streamed(from:decoder:)``).
    init(
        checkpoint: LedgerCheckpoint?, entries: [LedgerEntry], unreadableEntries: [UnreadableLedgerEntry],
        unfinishedReceiptIDs: [String]
    ) {
        self.checkpoint = checkpoint
        self.entries = entries
        self.unreadableEntries = unreadableEntries
        self.unfinishedReceiptIDs = unfinishedReceiptIDs
    }

    private enum CodingKeys: String, CodingKey {
        case entries, unreadableEntries, checkpoint, entriesSinceCheckpoint, unfinishedReceiptIDs
    }

    /// Decodes a ledger entry by entry, with or without a checkpoint of older entries:
    /// an entry that can't be read is kept in ``unreadableEntries`` instead of making the whole
    /// document unreadable; a checkpoint that can't be read makes the document invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        checkpoint = try container.decodeIfPresent(LedgerCheckpoint.self, forKey: .checkpoint)
        var list = try container.nestedUnkeyedContainer(forKey: checkpoint == nil ? .entries : .entriesSinceCheckpoint)
        while !list.isAtEnd {
            let index = list.currentIndex
            do {
                entries.append(try list.decode(LedgerEntry.self))
            } catch {
                // A failed decode does not move the container on: read the same element again
                // as plain JSON, which any well-formed element is.
                guard list.currentIndex == index else { throw error }
                let raw = try list.decode(StoredJSON.self)
                unreadableEntries.append(UnreadableLedgerEntry(stored: raw, reason: Self.reason(error)))
            }
        }
        if let kept = try container.decodeIfPresent([StoredJSON].self, forKey: .unreadableEntries) {
            unreadableEntries += kept.map {
                UnreadableLedgerEntry(stored: $0, reason: "it could not be read when the ledger was loaded earlier")
            }
        }
        unfinishedReceiptIDs = try Self.checkedUnfinishedReceiptIDs(
            container.decodeIfPresent([String].self, forKey: .unfinishedReceiptIDs) ?? [])
        LedgerDecoding.count(
            entries: entries.count + unreadableEntries.count, checkpoints: checkpoint == nil ? 0 : 1)
    }

    /// Encodes the entries (under `entries`, or after the checkpoint under
    /// `entriesSinceCheckpoint`), the unreadable ones unchanged under `unreadableEntries` and
    /// the `unfinishedReceiptIDs` under `unfinishedReceiptIDs`, when there are any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let checkpoint {
            try container.encode(checkpoint, forKey: .checkpoint)
            try container.encode(entries, forKey: .entriesSinceCheckpoint)
        } else {
            try container.encode(entries, forKey: .entries)
        }
        if !unreadableEntries.isEmpty {
            try container.encode(unreadableEntries.map(\.stored), forKey: .unreadableEntries)
        }
        if !unfinishedReceiptIDs.isEmpty {
            try container.encode(unfinishedReceiptIDs, forKey: .unfinishedReceiptIDs)
        }
    }

    /// `ids` as read from a document, range-checked: at most
    /// ``LedgerCheckpoint/maximumStoredReceiptIDs`` ids of 1 to 200 characters.
    static func checkedUnfinishedReceiptIDs(_ ids: [String]) throws -> [String] {
        let limit = LedgerCheckpoint.maximumStoredReceiptIDs
        guard ids.count <= limit, ids.allSatisfy({ (1...200).contains($0.count) }) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [CodingKeys.unfinishedReceiptIDs],
                    debugDescription:
                        "more than \(limit) unfinished receipt ids, or an id that is empty or longer than 200 characters"))
        }
        return ids
    }

    /// A decoding error in a sentence.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    /// Appends an entry.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - date: When, on the wall clock.
    ///   - receiptID: The purchase backend's receipt, for purchases.
    ///   - boost: For a used item, the boost it started.
    public mutating func append(
        _ kind: LedgerEntry.Kind, at date: Date, receiptID: String? = nil, boost: BoostGrant? = nil
    ) {
        entries.append(LedgerEntry(kind: kind, date: date, receiptID: receiptID, boost: boost))
    }

    /// Folds all but the newest `count` entries into the ``checkpoint``. Every count derived
    /// from the ledger stays the same; ``receiptIDs`` keeps the newest
    /// ``retainedReceiptIDCount`` ids (and every id of the entries kept).
    ///
    /// - Parameter count: How many of the newest entries to keep as they are; below zero is
    ///   read as zero. A ledger with no more entries than that is left as it is.
    package mutating func compact(keepingLast count: Int = PurchaseLedger.recentEntryLimit) {
        let folded = entries.count - max(count, 0)
        guard folded > 0 else { return }
        var checkpoint = self.checkpoint ?? LedgerCheckpoint()
        for entry in entries[..<folded] { checkpoint.fold(entry) }
        checkpoint.trimReceiptIDs(to: Self.retainedReceiptIDCount)
        entries.removeFirst(folded)
        self.checkpoint = checkpoint
    }

    /// How many entries the ledger has held: those folded into the ``checkpoint`` and those
    /// after it.
    package var entryCount: Int {
        (checkpoint?.entryCount ?? 0).saturatingAdding(entries.count)
    }

    /// The totals of the checkpoint carried on through the entries.
    private var totals: LedgerTotals {
        var totals = LedgerTotals(from: checkpoint)
        for entry in entries { totals.add(entry) }
        return totals
    }

    /// The boost items owned: bought, less used, plus refunded. Never negative, and at most
    /// `Int.max` however many were bought.
    public var boostItems: Int {
        max(0, totals.boostItemBalance)
    }

    /// When premium ends: each premium purchase adds its days to whatever premium time was left
    /// when it was bought. `nil` if premium was never bought; never later than
    /// `Date.distantFuture`.
    public var premiumExpiry: Date? {
        totals.premiumExpiry
    }

    /// The receipt ids already recorded: every one since the checkpoint, and those of the
    /// newest 256 purchases folded into it.
    ///
    /// Receipt ids found in ``unreadableEntries`` are included: such a receipt was credited
    /// once, and is not credited again.
    public var receiptIDs: Set<String> {
        Set(checkpoint?.receiptIDs ?? []).union(entries.lazy.compactMap(\.receiptID))
            .union(unreadableEntries.lazy.compactMap(\.receiptID)).union(unfinishedReceiptIDs)
    }

    /// Credits the receipts this ledger does not know yet, each once (a receipt listed twice
    /// counts once), in order, and remembers their ids as unfinished until the backend finishes
    /// them (see `unfinishedReceiptIDs`). When none is credited, the ledger is left as it was.
    ///
    /// - Parameters:
    ///   - receipts: The receipts to credit, oldest first.
    ///   - beyondLimit: How many of the last receipts are credited even when
    ///     ``unfinishedReceiptIDLimit`` is reached (a purchase just paid for); the others wait.
    ///   - finished: Ids the backend has finished since they were credited: they leave
    ///     `unfinishedReceiptIDs` first (see ``finishedReceiptIDs(seen:pending:)``).
    /// - Returns: The receipts credited.
    package mutating func credit(
        _ receipts: [PurchaseReceipt], beyondLimit: Int = 0, finished: Set<String> = []
    ) -> [PurchaseReceipt] {
        var next = self
        if !finished.isEmpty { next.unfinishedReceiptIDs.removeAll { finished.contains($0) } }
        var known = next.receiptIDs
        var credited: [PurchaseReceipt] = []
        for (index, receipt) in receipts.enumerated() {
            let mayExceed = index >= receipts.count - beyondLimit
            guard mayExceed || next.unfinishedReceiptIDs.count < Self.unfinishedReceiptIDLimit else { continue }
            guard known.insert(receipt.id).inserted else { continue }
            next.append(receipt.product.ledgerKind, at: receipt.date, receiptID: receipt.id)
            next.unfinishedReceiptIDs.append(receipt.id)
            credited.append(receipt)
        }
        guard !credited.isEmpty else { return [] }
        next.compact()
        self = next
        return credited
    }

    /// The unfinished receipt ids the backend finished between two reads: those in `seen` that
    /// are not in `pending`.
    ///
    /// - Parameters:
    ///   - seen: `unfinishedReceiptIDs` as read before the backend was asked.
    ///   - pending: The ids of every receipt the backend reported pending, asked after `seen`
    ///     was read.
    package static func finishedReceiptIDs(seen: [String], pending: [PurchaseReceipt]) -> Set<String> {
        Set(seen).subtracting(pending.lazy.map(\.id))
    }

    /// Whether `other` is this ledger at the same point of its history: as many entries, with
    /// the same newest one, the same receipt ids kept by the checkpoint and the same unfinished
    /// ones.
    ///
    /// Every write that can make the ledger forget a receipt id (an id leaving
    /// `unfinishedReceiptIDs`, a compaction) adds an entry or folds entries, so a list of
    /// receipts asked of the backend after `other` was read is fresh for this ledger when this
    /// is `true`: a receipt the list reports pending was not credited and forgotten in between.
    package func isSameVersion(as other: PurchaseLedger) -> Bool {
        entryCount == other.entryCount && entries.count == other.entries.count
            && entries.last?.receiptID == other.entries.last?.receiptID
            && entries.last?.kind == other.entries.last?.kind
            && unfinishedReceiptIDs == other.unfinishedReceiptIDs
            && checkpoint?.receiptIDs == other.checkpoint?.receiptIDs
    }

    /// The newest entry that spent an item on a boost, with the boost it started (kept by the
    /// checkpoint when that entry was folded into it).
    public var latestBoostGrant: BoostGrant? {
        entries.last { $0.kind == .boostItemUsed && $0.boost != nil }?.boost ?? checkpoint?.latestBoostGrant
    }
}

/// The boost that one spent boost item started: recorded in the same ledger entry that spends
/// the item, so the spend and its boost are written to disk as one step.
///
/// A crash right after the ledger was saved cannot lose the item: the next launch finds the
/// entry and shows its boost running until ``endDate`` (or over, if that has passed), with the
/// same protections as the boost's own record: its end on the device's boot time line and the
/// cap of its length, so a date set back cannot stretch it.
public struct BoostGrant: Sendable, Codable, Hashable {
    /// A unique id of this use of an item.
    public var id: String
    /// When the boost ends, on the wall clock.
    public var endDate: Date
    /// The boot the boost's ``endSinceBootSeconds`` belongs to, where the platform tells.
    var bootID: String?
    /// When the boost ends, in seconds since that boot.
    var endSinceBootSeconds: Double?
    /// The boost's length when it started, in seconds: the most time left it may show.
    var lengthSeconds: Double?
    /// For the boost that is deciding this grant: what the purchase ledger must still hold for
    /// the item to be spent on it (never stored).
    var spendCheck: CountdownSpendCheck?

    /// Creates a grant.
    public init(id: String, endDate: Date) {
        self.id = id
        self.endDate = endDate
    }
}

/// One line of the ``PurchaseLedger``.
///
/// Stored as an object that names its ``kind`` and carries the kind's amount
/// beside it:
///
/// ```json
/// { "count" : 3, "date" : "2025-05-10T08:53:20.4316511Z", "kind" : "boostItemsBought", "receiptID" : "r-1" }
/// { "date" : "2025-05-10T09:53:20Z", "days" : 30, "kind" : "premiumBought", "receiptID" : "r-2" }
/// { "boost" : { "endDate" : "2025-05-10T10:23:20Z", "id" : "g-1" }, "date" : "2025-05-10T09:53:20Z", "kind" : "boostItemUsed" }
/// ```
public struct LedgerEntry: Sendable, Codable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Codable, Equatable {
        /// Boost items were bought.
        case boostItemsBought(Int)
        /// One boost item was used to start a boost.
        case boostItemUsed
        /// A used item was given back because its boost could not start (written by earlier
        /// versions; this one decides before spending, so it never needs to give one back).
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
    /// For a used item, the boost it started (`nil` in entries written by earlier versions).
    public var boost: BoostGrant?

    /// The keys of an entry on disk: its kind's (`kind`, `count`, `days`) and its own.
    enum CodingKeys: String, CodingKey {
        case kind, count, days, date, receiptID, boost
    }

    /// Creates an entry.
    public init(kind: Kind, date: Date, receiptID: String? = nil, boost: BoostGrant? = nil) {
        self.kind = kind
        self.date = date
        self.receiptID = receiptID
        self.boost = boost
    }

    /// Decodes an entry and range-checks it: counts and days within the product limits, dates
    /// within the years 0000–9999, ids of at most 200 characters. Reads the shape of the
    /// document's format version (see ``encode(to:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if decoder.documentFormatVersion == 1 {
            kind = try container.decode(LedgerEntryKindVersion1.self, forKey: .kind).current
        } else {
            kind = try Kind(storedIn: container)
        }
        date = try container.decode(Date.self, forKey: .date)
        receiptID = try container.decodeIfPresent(String.self, forKey: .receiptID)
        boost = try container.decodeIfPresent(BoostGrant.self, forKey: .boost)
        switch kind {
        case .boostItemsBought(let count) where !PurchaseProduct.boostItemLimit.contains(count):
            throw Self.outOfRange(.kind, in: container, "\(count) boost items is outside \(PurchaseProduct.boostItemLimit)")
        case .premiumBought(let days) where !PurchaseProduct.premiumDayLimit.contains(days):
            throw Self.outOfRange(.kind, in: container, "\(days) days of premium is outside \(PurchaseProduct.premiumDayLimit)")
        default: break
        }
        guard StoredDate.isPlausible(date) else {
            throw Self.outOfRange(.date, in: container, "the date is outside \(StoredDate.rangeDescription)")
        }
        if let boost, !StoredDate.isPlausible(boost.endDate) {
            throw Self.outOfRange(.boost, in: container, "the boost's end is outside \(StoredDate.rangeDescription)")
        }
        if (receiptID?.count ?? 0) > 200 || (boost?.id.count ?? 0) > 200 {
            throw Self.outOfRange(.receiptID, in: container, "an id is longer than 200 characters")
        }
    }

    /// Encodes the entry as one object: its kind's name under `kind`, the kind's amount beside
    /// it (`count` or `days`), then `date`, and `receiptID` and `boost` when present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try kind.encode(into: &container)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(receiptID, forKey: .receiptID)
        try container.encodeIfPresent(boost, forKey: .boost)
    }

    private static func outOfRange(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>, _ message: String
    ) -> DecodingError {
        .dataCorruptedError(forKey: key, in: container, debugDescription: message)
    }
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

/// Range checks for dates read from disk.
enum StoredDate {
    /// The range in words, for messages.
    static let rangeDescription = "the years 0000–9999"

    /// Whether `date` is one a document can hold: a finite date in the years 0000–9999. This
    /// is exactly what the storage writes, so a date written on a clock set before 1970 (or
    /// decades ahead) reads back too.
    static func isPlausible(_ date: Date) -> Bool {
        date.isStorableInDocuments
    }
}

extension Int {
    /// `self + other`, clamped to `Int.min ... Int.max` instead of overflowing.
    func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

extension PurchaseLedger {
    /// Replaces every receipt id of the entries and the checkpoint with
    /// `StoreSnapshot.redacted`, and leaves out the unreadable entries (they may hold
    /// anything), for a snapshot.
    mutating func redactReceiptIDs() {
        for index in entries.indices where entries[index].receiptID != nil {
            entries[index].receiptID = StoreSnapshot.redacted
        }
        if var checkpoint {
            checkpoint.receiptIDs = checkpoint.receiptIDs.map { _ in StoreSnapshot.redacted }
            self.checkpoint = checkpoint
        }
        unfinishedReceiptIDs = unfinishedReceiptIDs.map { _ in StoreSnapshot.redacted }
        unreadableEntries = []
    }
}
