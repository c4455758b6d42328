import Foundation
import SingletonStores

/// The versions of the purchase documents (`purchases`, the ledger, and `receipts`, the local
/// backend's), and the step that brings a document of version 1 up to version 2.
///
/// Version 1 is what format 1 wrote (the products and the kinds of entries in the shape Swift
/// synthesizes for an enum with payloads, `{"boostItemsBought": {"_0": 3}}`); version 2 is the
/// current shape (`{"kind": "boostItemsBought", "count": 3}`). A document written before value
/// versions were recorded holds the version its format stands for. Migrating keeps a backup of
/// the version-1 document beside it (see ``DocumentMigrations``).
///
/// The step converts the shapes only: its result is decoded as the current value, so the range
/// checks of ``LedgerEntry`` and ``PurchaseReceipt`` apply to migrated documents as to any
/// other. A ledger entry that is not a version-1 entry at all is carried over exactly as it was
/// stored and loads as one of the ledger's ``PurchaseLedger/unreadableEntries``. A version-1
/// document that does not read is damaged, and kept aside as a current one would be.
enum PurchaseDocumentMigrations {
    /// Migrations of a built-in value whose version 1 is what format 1 wrote.
    private static func builtIn<Value>(_ type: Value.Type) -> DocumentMigrations<Value> {
        DocumentMigrations<Value>(version: 2).unversionedDocuments { formatVersion in formatVersion == 1 ? 1 : 2 }
            .keepingInvalidDocumentsAside()
    }

    /// The ledger's: entry by entry, from the synthesized shape of version 1.
    /// A long ledger of the current version (every one earlier versions wrote, however long) is
    /// read front to back and compacted as it is read (see ``PurchaseLedger/streamed(from:decoder:)``).
    static let ledger = builtIn(PurchaseLedger.self)
        .step(from: 1) { (old: PurchaseLedgerVersion1) in old }
        .readingLongDocuments(over: PurchaseLedger.streamingThreshold) { stream, decoder in
            try PurchaseLedger.streamed(from: &stream, decoder: decoder)
        }

    /// The local backend's receipts: each product from the synthesized shape of version 1.
    static let receipts = builtIn([PurchaseReceipt].self)
        .step(from: 1) { (old: [PurchaseReceiptVersion1]) in old.map(\.current) }

    /// The same document as the local backend reads it, each receipt with its mark of credit
    /// (a receipt of version 1 carries none: see ``StoredReceipt``). A long document of the
    /// current version (every receipt an earlier version kept) is read front to back and cut
    /// down as it is read (see ``LocalPurchaseBackend/streamedReceipts(from:decoder:)``).
    static let storedReceipts = builtIn([StoredReceipt].self)
        .step(from: 1) { (old: [PurchaseReceiptVersion1]) in old.map { StoredReceipt($0.current, credited: nil) } }
        .readingLongDocuments(over: LocalPurchaseBackend.streamingThreshold) { stream, decoder in
            try LocalPurchaseBackend.streamedReceipts(from: &stream, decoder: decoder)
        }
}

/// A receipt as version 1 of the `receipts` document stored it.
struct PurchaseReceiptVersion1: Decodable, Sendable {
    var id: String
    var product: PurchaseProductVersion1
    var date: Date

    /// The receipt in the current shape (range-checked when the migrated document is decoded).
    var current: PurchaseReceipt { PurchaseReceipt(id: id, product: product.current, date: date) }
}

/// A ledger entry as version 1 of the `purchases` document stored it.
struct LedgerEntryVersion1: Decodable, Sendable {
    var kind: LedgerEntryKindVersion1
    var date: Date
    var receiptID: String?
    var boost: BoostGrant?

    /// The entry in the current shape (range-checked when the migrated document is decoded).
    var current: LedgerEntry { LedgerEntry(kind: kind.current, date: date, receiptID: receiptID, boost: boost) }
}

/// The ledger as version 1 of the `purchases` document stored it: `{"entries": […]}`, with
/// ledger entries that version could not read kept under `unreadableEntries`.
///
/// Encoded, it is the ledger in the shape of version 2: the entries in order, readable ones in
/// the current shape and the others as they were, for ``PurchaseLedger``'s decoding to check.
struct PurchaseLedgerVersion1: Codable, Sendable {
    /// One stored entry: read as a version-1 entry, or kept as it was.
    enum Entry: Codable, Sendable {
        case readable(LedgerEntry)
        case kept(StoredJSON)

        init(from decoder: any Decoder) throws {
            if let entry = try? LedgerEntryVersion1(from: decoder) {
                self = .readable(entry.current)
            } else {
                self = .kept(try StoredJSON(from: decoder))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .readable(let entry): try entry.encode(to: encoder)
            case .kept(let stored): try stored.encode(to: encoder)
            }
        }
    }

    var entries: [Entry]
    var unreadableEntries: [StoredJSON]?
}
