import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing
import Timers
@testable import Stores

/// The work of a launch, a purchase and a spent item does not grow with the purchase history:
/// counted in entries and receipts decoded and in bytes of the documents read, never in time.
@Suite("The cost of a launch does not grow with the history", .ownThread)
struct LedgerWorkTests {
    /// What one operation read.
    struct Work: Equatable, CustomStringConvertible {
        /// What was decoded.
        var decoded: LedgerDecoding.Counts
        /// The size of the ledger and receipts documents it started from.
        var documentBytes: Int

        var description: String {
            "\(decoded.entries) entries, \(decoded.checkpoints) checkpoints, \(decoded.receipts) receipts, \(documentBytes) bytes"
        }
    }

    /// The work of a launch and `purchase show`, of one purchase, and of one spent item.
    struct Costs: Equatable {
        var launchAndShow: Work
        var purchase: Work
        var boostUse: Work
    }

    /// An id of fixed width, so that documents of different histories differ only in their counts.
    private static func receiptID(_ index: Int) -> String {
        let digits = String(index)
        return "r-" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// Writes a ledger of `count` settled purchases, and the local backend's receipts for
    /// them, in the shape every earlier version wrote: one long list each.
    private static func writeUncompactedHistory(of count: Int, in folder: URL) throws {
        var ledger = #"{"formatVersion": 2, "value": {"entries": ["#
        var receipts = #"{"formatVersion": 2, "value": ["#
        ledger.reserveCapacity(count * 100)
        receipts.reserveCapacity(count * 100)
        for index in 0..<count {
            let separator = index == 0 ? "" : ","
            let id = receiptID(index)
            ledger +=
                #"\#(separator){"count": 1, "date": "2025-05-10T08:53:20Z", "kind": "boostItemsBought", "receiptID": "\#(id)"}"#
            receipts +=
                #"\#(separator){"date": "2025-05-10T08:53:20Z", "id": "\#(id)", "product": {"count": 1, "kind": "boostItems"}}"#
        }
        try Data((ledger + "]}}").utf8).write(to: folder.appending(path: "purchases.json"))
        try Data((receipts + "]}").utf8).write(to: folder.appending(path: "receipts.json"))
    }

    private static func documentBytes(in folder: URL) -> Int {
        ["purchases.json", "receipts.json"].reduce(0) { total, name in
            // The envelope's bytes, what a read decodes (a two-slot file holds it with room to grow).
            total + ((try? DocumentFileText.envelope(at: folder.appending(path: name)).count) ?? 0)
        }
    }

    /// Runs `body` and returns what it decoded, with the documents' size before it ran.
    private static func measure(in folder: URL, _ body: () async throws -> Void) async rethrows -> Work {
        let bytes = documentBytes(in: folder)
        let tally = LedgerDecoding.Tally()
        try await LedgerDecoding.$tally.withValue(tally) { try await body() }
        return Work(decoded: tally.counts, documentBytes: bytes)
    }

    /// A launch as demo-cli makes it: the purchases, and the boost only when an item is spent.
    private static func launch(_ folder: URL, boost: Bool = false) -> PurchaseManager {
        // A launch is a new process: it has decoded nothing yet.
        WrittenDocuments.forget(under: folder)
        let storage = FileStorage(folder: folder)
        let center = NotificationCenter()
        let report: @Sendable (StoreIssue) -> Void = { Issue.record("unexpected report \($0)") }
        let manager =
            boost
            ? BoostTimeManager(clock: ManualClock(), storage: storage, center: center, watching: .off, reportIssue: report)
            : nil
        return PurchaseManager(storage: storage, boost: manager, center: center, watching: .off, reportIssue: report)
    }

    /// The three operations on the data folder as it is.
    private static func costs(in folder: URL) async throws -> Costs {
        let launchAndShow = await measure(in: folder) {
            let purchases = launch(folder)
            _ = PurchaseCommandLines(purchases)
        }
        let purchase = try await measure(in: folder) {
            try await launch(folder).buy(.boostItems(1))
        }
        let boostUse = try await measure(in: folder) {
            try launch(folder, boost: true).useBoostItem(duration: 60)
        }
        return Costs(launchAndShow: launchAndShow, purchase: purchase, boostUse: boostUse)
    }

    /// What `purchase show` reads.
    private struct PurchaseCommandLines {
        init(_ purchases: PurchaseManager) {
            _ = (purchases.ownedBoostItems, purchases.premiumExpiry, purchases.isPremium, purchases.flowState)
            _ = purchases.purchaseLedger.entryCount
        }
    }

    @Test func aLaunchAPurchaseAndASpentItemCostTheSameAfterTheTenthOrTheHundredThousandthPurchase() async throws {
        let large = 100_000
        try await withTemporaryFolder { small in
            try await withTemporaryFolder { medium in
                try await withTemporaryFolder { big in
                    // Ten purchases made through the store.
                    for _ in 0..<10 { try await Self.launch(small).buy(.boostItems(1)) }
                    // A thousand and a hundred thousand, written as earlier versions left them.
                    try Self.writeUncompactedHistory(of: 1_000, in: medium)
                    try Self.writeUncompactedHistory(of: large, in: big)
                    // Before the first compaction, a launch reads the whole history; the receipts
                    // are read as a stream and cut down to the newest as they are read.
                    let first = await Self.measure(in: big) { _ = Self.launch(big) }
                    #expect(first.decoded.entries == large)
                    #expect(first.decoded.receipts == LocalPurchaseBackend.retainedReceiptCount, "\(first)")
                    // The first purchase compacts; from then on the cost is the same.
                    for folder in [medium, big] { try await Self.launch(folder).buy(.boostItems(1)) }
                    let tenth = try await Self.costs(in: small)
                    let thousandth = try await Self.costs(in: medium)
                    let hundredThousandth = try await Self.costs(in: big)
                    // The same number of entries and receipts decoded at 1,000 and 100,000, and
                    // documents of the same size but for the digits of the counts.
                    for (at1e3, at1e5) in [
                        (thousandth.launchAndShow, hundredThousandth.launchAndShow),
                        (thousandth.purchase, hundredThousandth.purchase),
                        (thousandth.boostUse, hundredThousandth.boostUse),
                    ] {
                        #expect(at1e3.decoded == at1e5.decoded, "\(at1e3) vs \(at1e5)")
                        #expect(abs(at1e3.documentBytes - at1e5.documentBytes) <= 16, "\(at1e3) vs \(at1e5)")
                    }
                    // And within a small constant of a history of ten: each read of the ledger
                    // (one checkpoint each) decodes at most the entries kept after it, and the
                    // receipts read are the ones the backend keeps.
                    for (at10, at1e5) in [
                        (tenth.launchAndShow, hundredThousandth.launchAndShow),
                        (tenth.purchase, hundredThousandth.purchase),
                        (tenth.boostUse, hundredThousandth.boostUse),
                    ] {
                        let reads = at1e5.decoded.checkpoints
                        #expect((1...5).contains(reads), "\(at1e5)")
                        #expect(
                            at1e5.decoded.entries <= at10.decoded.entries + reads * PurchaseLedger.recentEntryLimit, "\(at1e5)")
                        // A purchase reads them three times: its own write, the pending ones
                        // credited with it, and the mark of credit.
                        #expect(at1e5.decoded.receipts <= 3 * (LocalPurchaseBackend.retainedReceiptCount + 1), "\(at1e5)")
                        #expect(at1e5.documentBytes <= 64 * 1_024, "\(at1e5)")
                    }
                }
            }
        }
    }
}
