import Foundation
import SingletonStores

extension PurchaseLedger {
    /// Documents longer than this are read front to back (see ``streamed(from:decoder:)``):
    /// 64 KiB, beyond any ledger this version writes (a compacted one is a few KiB).
    static let streamingThreshold: Int64 = 64 * 1_024

    /// The most entries decoded at once while streaming.
    private static let batchCount = 1_024

    /// The most bytes of one entry, or of a checkpoint, read while streaming.
    private static let longestStoredPart = 4 * 1_024 * 1_024

    /// Reads a ledger's value from `stream`, front to back, as ``init(from:)`` reads it whole —
    /// entries range-checked one by one, unreadable ones kept as stored — but compacted as it
    /// goes: every entry but the newest ``recentEntryLimit`` is folded into the checkpoint as
    /// soon as it is read, so memory holds a few thousand entries however long the history.
    /// The result is what reading the whole document and calling ``compact(keepingLast:)``
    /// gives.
    ///
    /// - Throws: When the value is not a ledger, as the whole read would; also when its
    ///   checkpoint comes after its entries (this version writes it first), or one entry is
    ///   longer than 4 MiB.
    static func streamed(from stream: inout DocumentStream, decoder: JSONDecoder) throws -> PurchaseLedger {
        var checkpoint: LedgerCheckpoint?
        var readEntries = false
        var builder = Builder()
        try stream.forEachMember { key, stream in
            switch key {
            case "checkpoint":
                guard !readEntries else { throw DocumentStream.Malformed(description: "the checkpoint comes after the entries") }
                let bytes = try stream.valueBytes(limit: Self.longestStoredPart)
                checkpoint = try decoder.decode(LedgerCheckpoint?.self, from: Data(bytes))
                builder.checkpoint = checkpoint
            case "entries" where checkpoint == nil, "entriesSinceCheckpoint" where checkpoint != nil:
                guard !readEntries else { throw DocumentStream.Malformed(description: "the entries are stored twice") }
                readEntries = true
                var batch = Batch()
                try stream.forEachElement { stream in
                    batch.add(try stream.valueBytes(limit: Self.longestStoredPart))
                    if batch.count >= Self.batchCount { try builder.add(batch.decode(decoder)) }
                }
                try builder.add(batch.decode(decoder))
            case "unreadableEntries":
                var kept: [StoredJSON] = []
                try stream.forEachElement { stream in
                    kept.append(try decoder.decode(StoredJSON.self, from: Data(stream.valueBytes(limit: Self.longestStoredPart))))
                }
                builder.kept += kept
            case "unfinishedReceiptIDs":
                let bytes = try stream.valueBytes(limit: Self.longestStoredPart)
                builder.unfinished = try PurchaseLedger.checkedUnfinishedReceiptIDs(
                    decoder.decode([String].self, from: Data(bytes)))
            default:
                try stream.skipValue()
            }
        }
        LedgerDecoding.count(checkpoints: checkpoint == nil ? 0 : 1)
        guard readEntries else {
            throw DocumentStream.Malformed(
                description: "“\(checkpoint == nil ? "entries" : "entriesSinceCheckpoint")” is missing")
        }
        return builder.finish()
    }

    /// Stored entries gathered into one JSON array, to be decoded together.
    private struct Batch {
        private var bytes: [UInt8] = [UInt8(ascii: "[")]
        private(set) var count = 0

        mutating func add(_ entry: [UInt8]) {
            if count > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += entry
            count += 1
        }

        /// The entries decoded, in order; the batch is empty again.
        mutating func decode(_ decoder: JSONDecoder) throws -> [StreamedEntry] {
            guard count > 0 else { return [] }
            bytes.append(UInt8(ascii: "]"))
            defer { self = Batch() }
            return try decoder.decode([StreamedEntry].self, from: Data(bytes))
        }
    }

    /// One stored entry: read, or kept as it was with the reason it could not be.
    private enum StreamedEntry: Decodable {
        case readable(LedgerEntry)
        case unreadable(UnreadableLedgerEntry)

        init(from decoder: any Decoder) throws {
            do {
                self = .readable(try LedgerEntry(from: decoder))
            } catch {
                self = .unreadable(
                    UnreadableLedgerEntry(stored: try StoredJSON(from: decoder), reason: PurchaseLedger.reason(error)))
            }
        }
    }

    /// The ledger being read: the checkpoint so far, the newest entries, the unreadable ones.
    private struct Builder {
        var checkpoint: LedgerCheckpoint?
        var recent: [LedgerEntry] = []
        var unreadable: [UnreadableLedgerEntry] = []
        var kept: [StoredJSON] = []
        var unfinished: [String] = []
        var decoded = 0
        var folded = false

        /// Adds entries read in order, folding all but the newest ``recentEntryLimit`` (in
        /// steps, so each entry moves once or twice).
        mutating func add(_ entries: [StreamedEntry]) {
            for entry in entries {
                switch entry {
                case .readable(let entry): recent.append(entry)
                case .unreadable(let entry): unreadable.append(entry)
                }
            }
            decoded += entries.count
            if recent.count >= 2 * PurchaseLedger.recentEntryLimit + PurchaseLedger.recentEntryLimit { fold() }
        }

        /// Folds all but the newest ``recentEntryLimit`` entries into the checkpoint.
        private mutating func fold() {
            let count = recent.count - PurchaseLedger.recentEntryLimit
            guard count > 0 else { return }
            var folding = checkpoint ?? LedgerCheckpoint()
            for entry in recent[..<count] { folding.fold(entry) }
            recent.removeFirst(count)
            checkpoint = folding
            folded = true
        }

        /// The ledger read, as the whole document read and compacted would be.
        mutating func finish() -> PurchaseLedger {
            fold()
            if folded, var checkpoint {
                checkpoint.trimReceiptIDs(to: PurchaseLedger.retainedReceiptIDCount)
                self.checkpoint = checkpoint
            }
            let unreadableEntries =
                unreadable
                + kept.map {
                    UnreadableLedgerEntry(stored: $0, reason: "it could not be read when the ledger was loaded earlier")
                }
            LedgerDecoding.count(entries: decoded)
            return PurchaseLedger(
                checkpoint: checkpoint, entries: recent, unreadableEntries: unreadableEntries,
                unfinishedReceiptIDs: unfinished)
        }
    }
}
