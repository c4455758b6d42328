import Foundation
import SingletonStores

extension LocalPurchaseBackend {
    /// `receipts` documents longer than this are read front to back (see
    /// ``streamedReceipts(from:decoder:)``): 64 KiB, beyond what this version keeps (64 credited
    /// receipts are about 11 KiB) unless many purchases wait to be credited.
    static let streamingThreshold: Int64 = 64 * 1_024

    /// The most receipts decoded at once while streaming.
    private static let batchCount = 1_024

    /// The most bytes of one receipt read while streaming.
    private static let longestReceipt = 64 * 1_024

    /// Reads the receipts of a long `receipts` document from `stream`, front to back, as the
    /// whole read does — each receipt range-checked — but cut down as it goes, as ``trim(_:)``
    /// cuts the whole list: every receipt not yet credited is kept, and of the others only the
    /// newest ``retainedReceiptCount``. Memory holds a batch of receipts,
    /// the pending ones and the newest 64 others, however many an earlier version kept.
    ///
    /// - Throws: When the value is not a list of receipts, as the whole read would; also when
    ///   one receipt is longer than 64 KiB.
    static func streamedReceipts(from stream: inout DocumentStream, decoder: JSONDecoder) throws -> [StoredReceipt] {
        var kept = KeptReceipts()
        var batch: [UInt8] = []
        var batched = 0
        func decodeBatch() throws {
            guard batched > 0 else { return }
            batch.append(UInt8(ascii: "]"))
            kept.add(try decoder.decode([StoredReceipt].self, from: Data(batch)))
            batch.removeAll(keepingCapacity: true)
            batched = 0
        }
        try stream.forEachElement { stream in
            batch.append(UInt8(ascii: batched == 0 ? "[" : ","))
            batch += try stream.valueBytes(limit: Self.longestReceipt)
            batched += 1
            if batched >= Self.batchCount { try decodeBatch() }
        }
        try decodeBatch()
        return kept.receipts
    }

    /// The receipts a streamed read keeps, in the document's order.
    private struct KeptReceipts {
        /// The receipts not yet credited, each with its place in the document.
        private var pending: [(place: Int, receipt: StoredReceipt)] = []
        /// The newest credited (or unmarked) receipts, at most ``retainedReceiptCount``, oldest
        /// first from `oldest`.
        private var newest: [(place: Int, receipt: StoredReceipt)] = []
        private var oldest = 0
        private var count = 0

        /// Adds receipts read in order.
        mutating func add(_ receipts: [StoredReceipt]) {
            for receipt in receipts {
                defer { count += 1 }
                if receipt.credited == false {
                    pending.append((count, receipt))
                } else if newest.count < LocalPurchaseBackend.retainedReceiptCount {
                    newest.append((count, receipt))
                } else {
                    newest[oldest] = (count, receipt)
                    oldest = (oldest + 1) % newest.count
                }
            }
        }

        /// Every pending receipt and the newest ``retainedReceiptCount`` others, in order.
        var receipts: [StoredReceipt] {
            let others = Array(newest[oldest...] + newest[..<oldest])
            let kept = (pending + others).sorted { $0.place < $1.place }
            return kept.map(\.receipt)
        }
    }
}
