import SingletonStoresTestSupport
import Foundation
import SingletonStores
import StoreObservation
import Stores
import Testing
import Timers

/// What a store writes, it reads back: every date the storage can write (the years 0000–9999,
/// a clock set before 1970 included) survives a write and a load in every built-in document,
/// and one entry a ledger can't read costs nothing else.
@Suite("Stored dates round-trip over the whole writable range")
struct StoredDateRangeTests {
    /// 0000-01-01T00:00:00Z and the last whole second of 9999, as seconds since 1970.
    private static let earliest: TimeInterval = -62_167_219_200
    private static let latest: TimeInterval = 253_402_300_799

    /// Dates at the edges of the range, around 1970 and 2001, and random ones between.
    private static func dates(seed: UInt64, count: Int) -> [Date] {
        var random = SplitMix(seed: seed)
        var values: [TimeInterval] = [
            earliest, earliest + 0.5, -1, -0.25, -1e-6, 0, 1e-6, -3_600, 978_307_199.999, latest, latest + 0.999,
        ]
        for _ in 0..<count {
            let whole = TimeInterval(Int64.random(in: Int64(earliest)...Int64(latest), using: &random))
            let fraction = [0, 0.5, 0.123_456_7, Double.random(in: 0..<1, using: &random)].randomElement(using: &random) ?? 0
            values.append(min(whole + fraction, latest))
        }
        return values.map { Date(timeIntervalSince1970: $0) }
    }

    @Test func everyWritableDateOfTheLedgerReceiptsAndBoostReadsBack() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let dates = Self.dates(seed: 1_969, count: 300)
            var ledger = PurchaseLedger()
            var receipts: [PurchaseReceipt] = []
            for (index, date) in dates.enumerated() {
                ledger.append(.boostItemsBought(1), at: date, receiptID: "r\(index)")
                ledger.append(.boostItemUsed, at: date, boost: BoostGrant(id: "g\(index)", endDate: date))
                receipts.append(PurchaseReceipt(id: "r\(index)", product: .boostItems(1), date: date))
            }
            try storage.save(ledger, to: StoreDocument(key: "purchases", default: ledger))
            try storage.save(receipts, to: StoreDocument(key: "receipts", default: receipts, identity: "PurchaseReceipts"))
            let readLedger = try storage.load(StoreDocument(key: "purchases", default: PurchaseLedger()))
            #expect(readLedger.recovery == nil)
            #expect(readLedger.value == ledger)
            #expect(readLedger.value.unreadableEntries.isEmpty)
            let readReceipts = try storage.load(
                StoreDocument<[PurchaseReceipt]>(key: "receipts", default: [], identity: "PurchaseReceipts"))
            #expect(readReceipts.recovery == nil)
            #expect(readReceipts.value == receipts)
        }
    }

    @Test(arguments: [
        "0000-01-01T00:00:00Z", "1969-12-31T23:00:00Z", "1969-12-31T23:59:59.999999Z", "9999-12-31T23:59:59Z",
    ])
    func aBoostThatEndsAtAnyWritableDateLoads(end: String) throws {
        try withTemporaryFolder { folder in
            let json = #"{"formatVersion": 2, "value": {"endDate": "\#(end)"}}"#
            try Data(json.utf8).write(to: folder.appending(path: "boost.json"))
            let reports = Recorder<StoreIssue>()
            _ = BoostTimeManager(
                clock: ManualClock(), wallClock: .fixed(Date(timeIntervalSince1970: -7_200)),
                storage: FileStorage(folder: folder, reportNotice: { _ in }), center: NotificationCenter(),
                reportIssue: { reports.append($0) })
            // An end more than 100 years ahead of the clock is read, then refused as a boost no
            // start writes (see BoostUnusableRecordTests); the document itself is not refused.
            let refusals = reports.values.filter { !"\($0)".contains("further ahead than the longest countdown") }
            #expect(refusals.isEmpty, "the boost document was refused: \(reports.values)")
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "boost.json").path(percentEncoded: false)))
        }
    }

    /// The outside report: buy 5, then buy once more with the clock at 1969-12-31 23:00 UTC; the
    /// next launch showed 0 items and restore found 0, both documents kept aside as damaged.
    @Test func aPurchaseMadeWithTheClockBefore1970KeepsTheWholeLedger() async throws {
        try await withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            let reports = Recorder<StoreIssue>()
            let first = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, center: NotificationCenter(), watching: .off,
                reportIssue: { reports.append($0) })
            try await first.buy(.boostItems(5))
            wall.set(to: Date(timeIntervalSince1970: -3_600))
            try await first.buy(.boostItems(1))
            try await first.buy(.premium(days: 1))

            let relaunched = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, center: NotificationCenter(), watching: .off,
                reportIssue: { reports.append($0) })
            #expect(relaunched.ownedBoostItems == 6)
            #expect(relaunched.premiumExpiry == Date(timeIntervalSince1970: -3_600 + 86_400))
            #expect(relaunched.loadProblem == nil)
            // The receipts read back too: a restore offers the premium one, dated 1969 (boost
            // items, once credited, are consumed).
            let restorable = try await LocalPurchaseBackend(storage: storage).restore()
            #expect(restorable.map(\.date) == [Date(timeIntervalSince1970: -3_600)])
            #expect(reports.values.isEmpty, "\(reports.values)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            #expect(!names.contains { $0.contains("~") }, "nothing was kept aside: \(names)")
        }
    }

    @Test(arguments: [
        #"{"kind": "boostItemsBought", "count": 9223372036854775807, "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": "boostItemsBought", "count": -3, "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": "premiumBought", "days": 9223372036854775807, "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": "boostItemsBought", "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": "boostItemsStolen", "count": 3, "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": {"boostItemsBought": {"_0": 3}}, "date": "2025-05-10T08:53:20Z", "receiptID": "bad"}"#,
        #"{"kind": "boostItemsBought", "count": 3, "date": "2025-13-01T00:00:00Z", "receiptID": "bad"}"#,
        #"{"kind": "boostItemsBought", "count": 3, "date": 768560000, "receiptID": "bad"}"#,
        #"{"kind": "boostItemUsed", "date": "2025-05-10T08:53:20Z", "boost": {"id": "g", "endDate": 1e300}, "receiptID": "bad"}"#,
        #"["not", "an", "entry", {"receiptID": "bad"}]"#,
    ])
    func oneUnreadableEntryCostsNothingElseAndIsKeptUnchanged(entry: String) async throws {
        try await withTemporaryFolder { folder in
            let good = #"{"kind": "boostItemsBought", "count": 4, "date": "2025-05-10T08:53:20Z", "receiptID": "good"}"#
            let document = #"{"formatVersion": 2, "value": {"entries": [\#(good), \#(entry), \#(good)]}}"#
            try Data(document.utf8).write(to: folder.appending(path: "purchases.json"))
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let reports = Recorder<StoreIssue>()
            let purchases = PurchaseManager(
                storage: storage, center: NotificationCenter(), watching: .off, reportIssue: { reports.append($0) })
            #expect(purchases.ownedBoostItems == 8)
            #expect(purchases.loadProblem == nil)
            #expect(purchases.purchaseLedger.unreadableEntries.count == 1)
            #expect(reports.values.count == 1)
            #expect(reports.values.first.map { "\($0)".contains("1 entry could not be read") } == true, "\(reports.values)")

            try await purchases.buy(.boostItems(1))
            let stored = try String(contentsOf: folder.appending(path: "purchases.json"), encoding: .utf8)
            let kept = purchases.purchaseLedger.unreadableEntries.first?.storedJSON ?? ""
            #expect(stored.contains("unreadableEntries"))
            let relaunched = PurchaseManager(
                storage: storage, center: NotificationCenter(), watching: .off, reportIssue: { _ in })
            #expect(relaunched.ownedBoostItems == 9)
            #expect(relaunched.purchaseLedger.unreadableEntries.first?.storedJSON == kept)
            if entry.hasPrefix("{") {
                #expect(relaunched.purchaseLedger.receiptIDs.contains("bad"), "a receipt named by a kept entry stays known")
            }
        }
    }
}

/// Found by the ledger fuzz target: an unreadable entry holding a number that reads as a
/// `Double` and is written back as a whole number read, the next time, as another value.
@Test func anUnreadableEntryReadsBackAsItselfAfterARewrite() throws {
    try withTemporaryFolder { folder in
        let entry = #"{"date": 1e+300, "kind": {"premiumBought": {"days": 92233720368547758.999999999907}}, "receiptID": "b"}"#
        try Data(#"{"formatVersion": 1, "value": {"entries": [\#(entry)]}}"#.utf8).write(
            to: folder.appending(path: "purchases.json"))
        let storage = FileStorage(folder: folder, reportNotice: { _ in })
        let first = try storage.load(StoreDocument(key: "purchases", default: PurchaseLedger())).value
        try storage.save(first, to: StoreDocument(key: "purchases", default: first))
        let second = try storage.load(StoreDocument(key: "purchases", default: PurchaseLedger())).value
        #expect(first.unreadableEntries.count == 1)
        #expect(second == first)
    }
}
