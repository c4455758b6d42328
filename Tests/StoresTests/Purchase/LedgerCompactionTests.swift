import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing
import Timers
@testable import Stores

/// A compacted ledger derives what the whole history derives; old, uncompacted documents load
/// compacted (long ones as they load, short ones by their next write); receipts are credited
/// once across compactions.
@Suite("The ledger folds its history into a checkpoint")
struct LedgerCompactionTests {
    /// A random history of `count` entries: every kind, receipts on purchases, grants on most
    /// spends, dates that sometimes go back (a wall clock set back), amounts across the limits.
    static func randomHistory(_ random: inout SplitMix, count: Int) -> [LedgerEntry] {
        var date = Date(timeIntervalSince1970: 1_700_000_000)
        return (0..<count).map { index in
            date.addTimeInterval(TimeInterval(Int.random(in: -86_400...(5 * 86_400), using: &random)))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                let count = Int.random(in: PurchaseProduct.boostItemLimit, using: &random)
                return LedgerEntry(kind: .boostItemsBought(count), date: date, receiptID: "r-\(index)")
            case 3..<6:
                let grant =
                    Bool.random(using: &random)
                    ? BoostGrant(id: "g-\(index)", endDate: date.addingTimeInterval(1_800)) : nil
                return LedgerEntry(kind: .boostItemUsed, date: date, boost: grant)
            case 6:
                return LedgerEntry(kind: .boostItemRefunded, date: date)
            default:
                let days = Int.random(in: PurchaseProduct.premiumDayLimit, using: &random)
                return LedgerEntry(kind: .premiumBought(days: days), date: date, receiptID: "p-\(index)")
            }
        }
    }

    /// Compares what `compacted` derives with what `whole` (never compacted) derives.
    static func expectSameDerivedValues(
        _ compacted: PurchaseLedger, _ whole: PurchaseLedger, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(compacted.boostItems == whole.boostItems, sourceLocation: sourceLocation)
        #expect(compacted.premiumExpiry == whole.premiumExpiry, sourceLocation: sourceLocation)
        #expect(compacted.latestBoostGrant == whole.latestBoostGrant, sourceLocation: sourceLocation)
        #expect(compacted.entryCount == whole.entries.count, sourceLocation: sourceLocation)
        // Receipt ids: none invented, every one of the newest purchases kept, all of them while
        // there are no more than the ledger remembers.
        let ids = whole.entries.compactMap(\.receiptID)
        #expect(compacted.receiptIDs.isSubset(of: whole.receiptIDs), sourceLocation: sourceLocation)
        #expect(
            Set(ids.suffix(PurchaseLedger.retainedReceiptIDCount)).isSubset(of: compacted.receiptIDs),
            sourceLocation: sourceLocation)
        if ids.count <= PurchaseLedger.retainedReceiptIDCount {
            #expect(compacted.receiptIDs == whole.receiptIDs, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: 0..<24)
    func aCompactedLedgerDerivesWhatTheWholeHistoryDerives(run: UInt64) throws {
        var random = SplitMix(seed: 0xC0FF_EE00 + run)
        let history = Self.randomHistory(&random, count: Int.random(in: 0...1_500, using: &random))
        var whole = PurchaseLedger()
        var compacted = PurchaseLedger()
        for (index, entry) in history.enumerated() {
            whole.append(entry.kind, at: entry.date, receiptID: entry.receiptID, boost: entry.boost)
            compacted.append(entry.kind, at: entry.date, receiptID: entry.receiptID, boost: entry.boost)
            // Compactions come at random moments and keep a random number of entries, as
            // writers with other limits would leave them.
            if Int.random(in: 0..<8, using: &random) == 0 {
                compacted.compact(keepingLast: Int.random(in: -1...80, using: &random))
            }
            if index % 97 == 0 { Self.expectSameDerivedValues(compacted, whole) }
        }
        Self.expectSameDerivedValues(compacted, whole)
        compacted.compact()
        #expect(compacted.entries.count <= PurchaseLedger.recentEntryLimit)
        Self.expectSameDerivedValues(compacted, whole)
        // Through a document and back, exactly.
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(compacted, to: StoreDocument(key: "purchases", default: compacted))
            let loaded = try storage.load(StoreDocument(key: "purchases", default: PurchaseLedger()))
            #expect(loaded.recovery == nil)
            #expect(loaded.value == compacted)
        }
    }

    @Test func aLedgerWithoutCheckpointIsWrittenAsBefore() throws {
        var ledger = PurchaseLedger()
        ledger.append(.boostItemsBought(3), at: Date(timeIntervalSince1970: 1_700_000_000), receiptID: "r-1")
        ledger.compact()
        #expect(ledger.checkpoint == nil, "a short ledger is left as it is")
        let text = String(decoding: try JSONEncoder().encode(ledger), as: UTF8.self)
        #expect(text.hasPrefix(#"{"entries":["#))
        ledger.compact(keepingLast: 0)
        let compacted = String(decoding: try JSONEncoder().encode(ledger), as: UTF8.self)
        #expect(compacted.contains(#""checkpoint":"#) && compacted.contains(#""entriesSinceCheckpoint":[]"#))
        #expect(!compacted.contains(#""entries":"#), "an older version keeps the document aside rather than misread it")
    }

    /// The stored shape of a compacted ledger, to the byte.
    @Test func aCompactedLedgerIsStoredAsItsCheckpointAndTheEntriesAfterIt() throws {
        let date = Date(timeIntervalSince1970: 1_746_867_200)  // 2025-05-10T08:53:20Z
        var ledger = PurchaseLedger()
        ledger.append(.boostItemsBought(3), at: date, receiptID: "r-1")
        ledger.append(.premiumBought(days: 30), at: date, receiptID: "r-2")
        ledger.append(.boostItemUsed, at: date, boost: BoostGrant(id: "g-1", endDate: date.addingTimeInterval(1_800)))
        ledger.append(.boostItemsBought(1), at: date, receiptID: "r-3")
        ledger.compact(keepingLast: 1)
        try withTemporaryFolder { folder in
            try FileStorage(folder: folder).save(ledger, to: StoreDocument(key: "purchases", default: ledger))
            let text = try DocumentFileText.text(at: folder.appending(path: "purchases.json"))
            #expect(
                text == """
                    {
                      "formatVersion" : 2,
                      "store" : "PurchaseLedger",
                      "value" : {
                        "checkpoint" : {
                          "boostItemBalance" : 2,
                          "entryCount" : 3,
                          "latestBoostGrant" : {
                            "endDate" : "2025-05-10T09:23:20Z",
                            "id" : "g-1"
                          },
                          "premiumExpiry" : "2025-06-09T08:53:20Z",
                          "receiptIDs" : [
                            "r-1",
                            "r-2"
                          ]
                        },
                        "entriesSinceCheckpoint" : [
                          {
                            "count" : 1,
                            "date" : "2025-05-10T08:53:20Z",
                            "kind" : "boostItemsBought",
                            "receiptID" : "r-3"
                          }
                        ]
                      }
                    }
                    """)
        }
        #expect(ledger.boostItems == 3 && ledger.receiptIDs == ["r-1", "r-2", "r-3"] && ledger.entryCount == 4)
    }

    @Test(arguments: [
        #"{"entryCount": -1, "boostItemBalance": 0, "receiptIDs": []}"#,
        #"{"entryCount": 1, "boostItemBalance": 0, "receiptIDs": ["\#(String(repeating: "x", count: 201))"]}"#,
        #"{"entryCount": 1, "boostItemBalance": 0, "premiumExpiry": "10000-01-01T00:00:00Z", "receiptIDs": []}"#,
        #"{"entryCount": 1, "boostItemBalance": -9223372036854775808, "receiptIDs": []}"#,
        #"{"entryCount": 2, "boostItemBalance": -3, "receiptIDs": []}"#,
        #"{"entryCount": 2, "boostItemBalance": 2001, "receiptIDs": []}"#,
        #"{"entryCount": 0, "boostItemBalance": 9223372036854775807, "receiptIDs": []}"#,
    ])
    func anOutOfRangeCheckpointMakesTheDocumentInvalid(checkpoint: String) throws {
        try withTemporaryFolder { folder in
            let text = #"{"formatVersion": 2, "value": {"checkpoint": \#(checkpoint), "entriesSinceCheckpoint": []}}"#
            try Data(text.utf8).write(to: folder.appending(path: "purchases.json"))
            let loaded = try FileStorage(folder: folder).load(
                StoreDocument(key: "purchases", default: PurchaseLedger()))
            #expect(loaded.recovery != nil)
            #expect(loaded.value == PurchaseLedger())
        }
    }

    @Test func anUncompactedDocumentLoadsCompactedAndStaysSoAfterAWrite() async throws {
        var random = SplitMix(seed: 7)
        var whole = PurchaseLedger()
        for entry in Self.randomHistory(&random, count: 1_000) {
            whole.append(entry.kind, at: entry.date, receiptID: entry.receiptID, boost: entry.boost)
        }
        try await withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(whole, to: StoreDocument(key: "purchases", default: whole))  // the shape every earlier version wrote
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_800_000_000))
            let purchases = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, center: NotificationCenter(), watching: .off,
                reportIssue: { Issue.record("unexpected report \($0)") })
            // Longer than a ledger this version writes: read as a stream and compacted as it loads.
            Self.expectSameDerivedValues(purchases.purchaseLedger, whole)
            #expect(purchases.purchaseLedger.entries.count == PurchaseLedger.recentEntryLimit)
            try await purchases.buy(.boostItems(2))
            let ledger = purchases.purchaseLedger
            #expect(ledger.entries.count == PurchaseLedger.recentEntryLimit)
            #expect(ledger.checkpoint?.entryCount == 1_001 - PurchaseLedger.recentEntryLimit)
            #expect(ledger.boostItems == whole.boostItems + 2)
            #expect(ledger.premiumExpiry == whole.premiumExpiry)
            #expect(ledger.latestBoostGrant == whole.latestBoostGrant)
            let reloaded = try storage.load(StoreDocument(key: "purchases", default: PurchaseLedger()))
            #expect(reloaded.value == ledger, "the compacted ledger is what is on disk")
        }
    }

    /// An entry this version cannot read survives compaction unchanged, and the receipt it
    /// names stays known, so a backend that presents it again credits nothing.
    @Test func anUnreadableEntryOutlivesCompactionAndItsReceiptStaysKnown() async throws {
        try await withTemporaryFolder { folder in
            let entry = #"{"count": 1, "date": "2025-05-10T08:53:20Z", "kind": "boostItemsBought", "receiptID": "r-%d"}"#
            let entries = (0..<200).map { String(format: entry, $0) }
            let odd = #"{"date": "2025-05-10T08:53:20Z", "kind": "giftReceived", "receiptID": "gift-1"}"#
            let text = #"{"formatVersion": 2, "value": {"entries": [\#(([odd] + entries).joined(separator: ","))]}}"#
            try Data(text.utf8).write(to: folder.appending(path: "purchases.json"))
            let date = Date(timeIntervalSince1970: 1_746_867_200)
            let backend = ScriptedPurchaseBackend(receipts: [
                PurchaseReceipt(id: "gift-1", product: .boostItems(5), date: date),
                PurchaseReceipt(id: "r-199", product: .boostItems(1), date: date),
            ])
            let purchases = PurchaseManager(
                backend: backend, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off,
                reportIssue: { _ in })
            try await purchases.buy(.boostItems(1))
            let ledger = purchases.purchaseLedger
            #expect(ledger.checkpoint != nil)
            #expect(ledger.unreadableEntries.map(\.receiptID) == ["gift-1"])
            #expect(ledger.boostItems == 201)
            #expect(try await purchases.restore() == 0, "neither the unreadable entry's receipt nor a recent one again")
            let reloaded = try FileStorage(folder: folder).load(
                StoreDocument(key: "purchases", default: PurchaseLedger()))
            #expect(reloaded.value == ledger)
        }
    }

    /// The local backend's receipts and an old ledger that holds them all; the ledger is
    /// compacted by spending an item (no purchase cuts the receipts down first). Relaunches
    /// and a restore credit nothing twice.
    @Test func receiptsAreCreditedOnceAcrossACompaction() async throws {
        try await withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            let receipts = (0..<1_000).map { PurchaseReceipt(id: "r-\($0)", product: .boostItems(1), date: date) }
            var ledger = PurchaseLedger()
            for receipt in receipts { ledger.append(.boostItemsBought(1), at: date, receiptID: receipt.id) }
            // The receipts as an earlier version stored them: the backend's document, of another shape.
            try storage.save(
                receipts,
                to: StoreDocument(key: "receipts", default: receipts, identity: "PurchaseReceipts"))
            try storage.save(ledger, to: StoreDocument(key: "purchases", default: ledger))
            func launch() -> (PurchaseManager, BoostTimeManager) {
                let center = NotificationCenter()
                let boost = BoostTimeManager(
                    clock: ManualClock(), storage: storage, center: center, watching: .off,
                    reportIssue: { Issue.record("unexpected report \($0)") })
                let purchases = PurchaseManager(
                    storage: storage, boost: boost, center: center, watching: .off,
                    reportIssue: { Issue.record("unexpected report \($0)") })
                return (purchases, boost)
            }
            let (first, boost) = launch()
            #expect(first.ownedBoostItems == 1_000)
            let kept = try storage.load(
                StoreDocument<[PurchaseReceipt]>(key: "receipts", default: [], identity: "PurchaseReceipts")
            ).value
            #expect(kept == Array(receipts.suffix(LocalPurchaseBackend.retainedReceiptCount)), "cut down to the newest")
            try first.useBoostItem(duration: 60)
            boost.stopCountDown()
            #expect(first.purchaseLedger.checkpoint != nil)
            let (second, _) = launch()
            #expect(second.ownedBoostItems == 999, "no receipt credited again")
            #expect(try await second.restore() == 0)
            try await second.buy(.boostItems(5))
            let (third, _) = launch()
            #expect(third.ownedBoostItems == 1_004)
            #expect(try await third.restore() == 0)
        }
    }

    /// Receipts not yet credited are all kept, however many (they were dropped beyond the
    /// newest 64 before they were credited); once credited, the newest 64 are kept for restores.
    @Test func theLocalBackendKeepsEveryReceiptUntilItIsCreditedThenItsNewest() async throws {
        let storage = InMemoryStorage()
        let backend = LocalPurchaseBackend(storage: storage)
        var receipts: [PurchaseReceipt] = []
        for _ in 0..<(LocalPurchaseBackend.retainedReceiptCount + 10) {
            guard case .purchased(let receipt) = try await backend.purchase(.boostItems(1)) else {
                Issue.record("the local backend approves every purchase")
                return
            }
            receipts.append(receipt)
        }
        #expect(try backend.pendingReceipts() == receipts)
        try backend.finish(Array(receipts.prefix(5)))
        #expect(try backend.pendingReceipts() == Array(receipts.dropFirst(5)))
        #expect(try await backend.restore() == Array(receipts.dropFirst(5)), "the 69 pending")
        try backend.finish(receipts)
        #expect(try backend.pendingReceipts() == [])
        #expect(try await backend.restore() == [], "boost items, once credited, are consumed")
        // Premium, credited, is restored: it gives the same end date again.
        guard case .purchased(let premium) = try await backend.purchase(.premium(days: 30)) else {
            Issue.record("the local backend approves every purchase")
            return
        }
        try backend.finish([premium])
        #expect(try await backend.restore() == [premium])
    }
}
