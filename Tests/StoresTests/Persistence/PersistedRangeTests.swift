import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Stores
import Testing
import Timers

/// Documents that decode as JSON but hold numbers no app could have written: each is kept aside
/// and reported like a damaged file, and nothing traps. Public intents refuse amounts beyond
/// their documented limits, and sums saturate.
@Suite("Persisted numbers are range-checked")
struct PersistedRangeTests {
    private static func write(_ json: String, key: String, in folder: URL) throws {
        try Data(json.utf8).write(to: folder.appending(path: "\(key).json"))
    }

    private static func keptFiles(in folder: URL, key: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { $0.hasPrefix("\(key)~corrupt") }
    }

    @Test(arguments: [
        #"{"formatVersion": 1, "value": {"pausedRemainingSeconds": 1e21}}"#,
        #"{"formatVersion": 1, "value": {"pausedRemainingSeconds": -5}}"#,
        #"{"formatVersion": 1, "value": {"endDate": 1e300}}"#,
        #"{"formatVersion": 1, "value": {"endDate": -1e300}}"#,
        #"{"formatVersion": 2, "value": {"pausedRemainingSeconds": 1e21}}"#,
        #"{"formatVersion": 2, "value": {"endDate": "2025-13-01T00:00:00Z"}}"#,
        #"{"formatVersion": 2, "value": {"endDate": "2025-02-30T00:00:00Z"}}"#,
        #"{"formatVersion": 2, "value": {"endDate": 768560000}}"#,
        #"{"formatVersion": 2, "value": {"settledGrantID": "\#(String(repeating: "g", count: 201))"}}"#,
    ])
    func boostDocumentOutOfRangeIsKeptAsideAndNoBoostRuns(document: String) throws {
        try withTemporaryFolder { folder in
            try Self.write(document, key: "boost", in: folder)
            let reports = Recorder<StoreIssue>()
            let boost = BoostTimeManager(
                clock: ManualClock(), storage: FileStorage(folder: folder), center: NotificationCenter(),
                reportIssue: { reports.append($0) })
            #expect(!boost.isInBoostTime)
            #expect(try Self.keptFiles(in: folder, key: "boost").count == 1)
            guard case .storageRecovered(.corrupted)? = reports.values.first else {
                Issue.record("expected a corrupted-document report, got \(reports.values)")
                return
            }
            boost.startCountDown(duration: 60)  // and the store goes on
            #expect(boost.remainingSeconds == 60)
        }
    }

    /// Found by the boost fuzz target: a paused time too small for a `Duration` made the
    /// countdown end and restart forever at launch.
    @Test func aPausedTimeTooSmallToCountIsNoBoost() throws {
        try withTemporaryFolder { folder in
            try Self.write(#"{"formatVersion": 1, "value": {"pausedRemainingSeconds": 1e-300}}"#, key: "boost", in: folder)
            let boost = BoostTimeManager(
                clock: ManualClock(), storage: FileStorage(folder: folder), center: NotificationCenter(),
                reportIssue: { _ in })
            #expect(!boost.isInBoostTime)
            #expect(!boost.isPaused)
            boost.resume()
            boost.extend(by: 60)
            #expect(!boost.isInBoostTime)
        }
    }

    @Test(arguments: [
        #"{"boostItemsBought": {"_0": 9223372036854775807}}"#,
        #"{"boostItemsBought": {"_0": -3}}"#,
        #"{"premiumBought": {"days": 9223372036854775807}}"#,
    ])
    func ledgerEntryOutOfRangeIsKeptUnreadAndCountsForNothing(kind: String) throws {
        try withTemporaryFolder { folder in
            let entry = #"{"kind": \#(kind), "date": 700000000}"#
            try Self.write(#"{"formatVersion": 1, "value": {"entries": [\#(entry), \#(entry)]}}"#, key: "purchases", in: folder)
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder), center: NotificationCenter(), reportIssue: { _ in })
            #expect(purchases.ownedBoostItems == 0)
            #expect(purchases.premiumExpiry == nil)
            #expect(purchases.purchaseLedger.unreadableEntries.count == 2)
            #expect(purchases.loadProblem == nil)
            #expect(try Self.keptFiles(in: folder, key: "purchases").isEmpty)
        }
    }

    @Test(arguments: [
        #"{"kind": "boostItems", "count": 9223372036854775807}"#,
        #"{"kind": "premium", "days": 0}"#,
        #"{"kind": "premium", "count": 30}"#,
        #"{"kind": "gems", "count": 3}"#,
        #"{"boostItems": {"_0": 3}}"#,
    ])
    func version2ReceiptOutOfRangeIsKeptAsideAndNeverCredited(product: String) throws {
        try withTemporaryFolder { folder in
            let receipt = #"{"id": "r1", "product": \#(product), "date": "2025-05-10T08:53:20Z"}"#
            try Self.write(#"{"formatVersion": 2, "value": [\#(receipt)]}"#, key: "receipts", in: folder)
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder), center: NotificationCenter(), reportIssue: { _ in })
            #expect(purchases.ownedBoostItems == 0)
            #expect(try Self.keptFiles(in: folder, key: "receipts").count == 1)
        }
    }

    /// A version-1 receipts document is migrated to version 2 at launch; one that does not read
    /// (a product out of range once migrated, or no product of version 1) is damaged, kept aside
    /// as before migrations existed, and the store goes on.
    @Test(arguments: [
        #"{"boostItems": {"_0": 9223372036854775807}}"#,
        #"{"gems": {"_0": 3}}"#,
    ])
    func receiptOutOfRangeIsKeptAsideAndNeverCredited(product: String) async throws {
        try await withTemporaryFolder { folder in
            let receipt = #"{"id": "r1", "product": \#(product), "date": 700000000}"#
            try Self.write(#"{"formatVersion": 1, "value": [\#(receipt)]}"#, key: "receipts", in: folder)
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder), center: NotificationCenter(), reportIssue: { _ in })
            #expect(purchases.ownedBoostItems == 0)
            #expect(try Self.keptFiles(in: folder, key: "receipts").count == 1)
            // Not a failed migration: the receipts document is written again by the next purchase.
            try await purchases.buy(.boostItems(2))
            #expect(purchases.ownedBoostItems == 2)
        }
    }

    @Test(arguments: [
        PurchaseProduct.boostItems(Int.max), .boostItems(1_001), .premium(days: Int.max), .premium(days: 3_651),
    ])
    func buyingBeyondTheLimitsIsRefusedBeforePayment(product: PurchaseProduct) async throws {
        let storage = InMemoryStorage()
        let purchases = PurchaseManager(storage: storage, center: NotificationCenter())
        await #expect(throws: PurchaseError.invalidProduct(product)) { try await purchases.buy(product) }
        // Premium: a restore offers its receipt once credited (boost items are consumed).
        try await purchases.buy(.premium(days: 1))
        #expect(purchases.premiumExpiry != nil)
        #expect(
            try await LocalPurchaseBackend(storage: storage).restore().count == 1, "the refused one never reached the backend")
        await #expect(throws: PurchaseError.invalidProduct(product)) {
            try await PurchaseStoreStub().buy(product)
        }
    }

    @Test func theLimitsThemselvesCanBeBought() async throws {
        let purchases = PurchaseManager(storage: InMemoryStorage(), center: NotificationCenter())
        try await purchases.buy(.boostItems(PurchaseProduct.boostItemLimit.upperBound))
        try await purchases.buy(.premium(days: PurchaseProduct.premiumDayLimit.upperBound))
        #expect(purchases.ownedBoostItems == 1_000)
    }

    @Test func ledgerSumsSaturateInsteadOfOverflowing() {
        var ledger = PurchaseLedger()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        ledger.append(.boostItemsBought(.max), at: date)
        ledger.append(.boostItemsBought(.max), at: date)
        ledger.append(.premiumBought(days: .max), at: date)
        ledger.append(.premiumBought(days: .max), at: date)
        #expect(ledger.boostItems == .max)
        #expect(ledger.premiumExpiry == .distantFuture)
    }
}
