import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing
@testable import Stores

/// A long `receipts` document — every receipt an earlier version kept — is read front to back
/// and cut down as it is read, in bounded memory, as a long ledger is; the first launch that
/// finds its lock free writes the short one back.
@Suite("A long receipts document is read as a stream")
struct ReceiptsStreamingTests {
    private static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` receipts, each unmarked (as an earlier version wrote it), credited or pending at
    /// random.
    private static func receipts(count: Int, random: inout SplitMix, pendingOneIn: UInt64 = 7) -> [StoredReceipt] {
        (0..<count).map { index in
            let receipt = PurchaseReceipt(
                id: "r-\(index)", product: random.next() % 5 == 0 ? .premium(days: 30) : .boostItems(Int(random.next() % 9) + 1),
                date: date.addingTimeInterval(Double(index)))
            let mark = random.next() % pendingOneIn
            return StoredReceipt(receipt, credited: mark == 0 ? false : mark == 1 ? true : nil)
        }
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// What reading `data` whole and cutting it down gives.
    private static func wholeRead(_ data: Data) throws -> [StoredReceipt] {
        var receipts = try decoder().decode([StoredReceipt].self, from: data)
        LocalPurchaseBackend.trim(&receipts)
        return receipts
    }

    @Test func theStreamedReadIsTheWholeReadCutDown() throws {
        var random = SplitMix(seed: 0x5EC_E1B7)
        var compared = 0
        for count in [0, 1, 63, 64, 65, 70, 200, 1_023, 1_024, 1_025, 3_000] {
            for pendingOneIn: UInt64 in [2, 7, 1_000_000] {
                let receipts = Self.receipts(count: count, random: &random, pendingOneIn: pendingOneIn)
                let data = try Self.encoder().encode(receipts)
                var stream = DocumentStream(bytes: [UInt8](data))
                let streamed = try LocalPurchaseBackend.streamedReceipts(from: &stream, decoder: Self.decoder())
                let whole = try Self.wholeRead(data)
                #expect(streamed == whole, "\(count) receipts, one in \(pendingOneIn) pending")
                #expect(streamed.filter { $0.credited == false } == receipts.filter { $0.credited == false })
                compared += 1
            }
        }
        #expect(compared == 33)
    }

    @Test func aReceiptThatDoesNotReadFailsTheStreamedReadAsTheWholeOne() throws {
        let data = Data(
            #"[{"id": "r-1", "product": {"kind": "boostItems", "count": 3}, "date": "2023-11-14T22:13:20Z"}, {"id": 7}]"#.utf8)
        #expect(throws: (any Error).self) { try Self.wholeRead(data) }
        var stream = DocumentStream(bytes: [UInt8](data))
        #expect(throws: (any Error).self) { try LocalPurchaseBackend.streamedReceipts(from: &stream, decoder: Self.decoder()) }
    }

    /// 20,000 receipts an earlier version kept (1.7 MB), 30 of them never credited: a load reads
    /// them as a stream and gets the pending ones and the newest credited, and writes that back.
    @Test func aLongDocumentLoadsCutDownAndIsWrittenBackShort() throws {
        try withTemporaryFolder { folder in
            var random = SplitMix(seed: 0xA11_5EC)
            var receipts = Self.receipts(count: 20_000, random: &random, pendingOneIn: 1_000_000)
            for index in stride(from: 0, to: 20_000, by: 700) { receipts[index].credited = false }
            let pending = receipts.filter { $0.credited == false }
            #expect(pending.count == 30, "29 planted, 1 drawn")
            let value = try Self.encoder().encode(receipts)
            let file = folder.appending(path: "receipts.json")
            try (Data(#"{"formatVersion": 2, "value": "#.utf8) + value + Data("}".utf8)).write(to: file)
            #expect(value.count > 1_500_000)

            let storage = FileStorage(folder: folder)
            let loaded = try storage.load(PurchaseDocuments.storedReceipts)
            #expect(loaded.recovery == nil)
            #expect(loaded.value == (try Self.wholeRead(value)))
            #expect(loaded.value.count == 30 + LocalPurchaseBackend.retainedReceiptCount, "30 pending and the newest 64 others")
            #expect(loaded.value.filter { $0.credited == false } == pending)
            let newestOthers = Array(receipts.filter { $0.credited != false }.suffix(64))
            #expect(loaded.value.filter { $0.credited != false } == newestOthers)
            let size = try #require(
                try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))[.size] as? Int)
            #expect(size < 64 * 1_024, "written back short: \(size) bytes")

            // What the next launch offers for credit: the pending ones, and the unmarked newest
            // (the ledger skips those it has).
            let backend = LocalPurchaseBackend(storage: storage)
            #expect(try backend.pendingReceipts() == loaded.value.filter { $0.credited != true }.map(\.receipt))
        }
    }
}
