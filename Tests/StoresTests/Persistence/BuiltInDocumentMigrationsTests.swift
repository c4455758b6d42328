import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Timers
import Testing

@testable import Stores

/// The built-in purchase documents changed shape from version 1 to 2 (enums with payloads).
/// The stores migrate them with `DocumentMigrations` (`PurchaseDocumentMigrations`): one typed
/// step from the old shape, run over the checked-in version-1 documents, gives the very value
/// that reading the old shape through `Decoder.documentFormatVersion` gives, and leaves a
/// backup; a version-2 document is not migrated.
@Suite("Built-in documents through DocumentMigrations")
struct BuiltInDocumentMigrationsTests {
    private static let receipts = PurchaseDocumentMigrations.receipts
    private static let ledger = PurchaseDocumentMigrations.ledger

    /// Loads fixture `name` of `version` through `migrations`, and through the hand-written
    /// reading in a folder of its own; both values, and the names of the files left beside.
    private static func load<Value: Codable & Sendable & Equatable>(
        _ name: String, version: Int, key: String, default defaultValue: Value, migrations: DocumentMigrations<Value>
    ) throws -> (migrated: Value, byHand: Value, files: [String]) {
        let fixture = try #require(DocumentFixture.all.first { $0.name == name })
        return try withTemporaryFolder { folder in
            try withTemporaryFolder { handFolder in
                try fixture.install(version: version, in: folder)
                try fixture.install(version: version, in: handFolder)
                let storage = FileStorage(folder: folder, reportNotice: { _ in })
                let migrated = try storage.load(StoreDocument<Value>(key: key, default: defaultValue, migrations: migrations))
                #expect(migrated.recovery == nil && migrated.isStored)
                let byHand = try FileStorage(folder: handFolder).load(StoreDocument<Value>(key: key, default: defaultValue))
                let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
                return (migrated.value, byHand.value, files.filter { $0 != "\(key).lock" && $0 != "\(key).lock-queue" }.sorted())
            }
        }
    }

    @Test func theVersion1ReceiptsMigrateAsTheyReadByHand() throws {
        let result = try Self.load("receipts", version: 1, key: "receipts", default: [], migrations: Self.receipts)
        #expect(result.migrated == result.byHand)
        #expect(result.migrated.count == 2)
        #expect(result.files.count == 2 && result.files.contains { $0.hasPrefix("receipts~before-v2-") })
    }

    @Test(arguments: ["purchases", "purchases-from-store", "purchases-empty"])
    func theVersion1LedgersMigrateAsTheyReadByHand(name: String) throws {
        let result = try Self.load(name, version: 1, key: "purchases", default: PurchaseLedger(), migrations: Self.ledger)
        #expect(result.migrated == result.byHand)
        #expect(result.files.contains { $0.hasPrefix("purchases~before-v2-") })
    }

    @Test(arguments: ["receipts", "purchases", "purchases-from-store"])
    func aVersion2DocumentWithoutAValueVersionIsNotMigrated(name: String) throws {
        if name == "receipts" {
            let result = try Self.load(name, version: 2, key: "receipts", default: [], migrations: Self.receipts)
            #expect(result.migrated == result.byHand)
            #expect(result.files == ["receipts.json"])
        } else {
            let result = try Self.load(name, version: 2, key: "purchases", default: PurchaseLedger(), migrations: Self.ledger)
            #expect(result.migrated == result.byHand)
            #expect(result.files == ["purchases.json"])
        }
    }

    /// The names of the files in `folder`, without the lock files.
    private static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { !$0.hasSuffix(".lock") && !$0.hasSuffix(".lock-queue") }.sorted()
    }

    /// A purchase store launched on the purchase documents of `version` in `folder`.
    private static func launch(version: Int, in folder: URL, notices: Recorder<StorageNotice>) throws -> PurchaseManager {
        for name in ["purchases", "receipts"] {
            try #require(DocumentFixture.all.first { $0.name == name }).install(version: version, in: folder)
        }
        return PurchaseManager(
            storage: FileStorage(folder: folder, reportNotice: notices.append),
            wallClock: ManualWallClock(now: Date(timeIntervalSinceReferenceDate: 768_600_000)).wallClock,
            center: NotificationCenter(), watching: .off, reportIssue: { Issue.record("unexpected report \($0)") })
    }

    @Test func aLaunchOnVersion1DocumentsMigratesThemWithABackupAndCountsAsVersion2() throws {
        try withTemporaryFolder { folder in
            try withTemporaryFolder { version2Folder in
                let notices = Recorder<StorageNotice>()
                let purchases = try Self.launch(version: 1, in: folder, notices: notices)
                let original = try Data(
                    contentsOf: try #require(DocumentFixture.all.first { $0.name == "purchases" }).file(version: 1))
                // The ledger was rewritten as version 2, and the version-1 document kept beside it.
                let files = try Self.files(in: folder)
                let backup = try #require(files.first { $0.hasPrefix("purchases~before-v2-") })
                #expect(try Data(contentsOf: folder.appending(path: backup)) == original)
                let text = try String(contentsOf: folder.appending(path: "purchases.json"), encoding: .utf8)
                #expect(text.contains(#""valueVersion" : 2"#) && !text.contains("_0"))
                #expect(files.contains { $0.hasPrefix("receipts~before-v2-") })
                #expect(notices.values.filter { if case .documentMigrated = $0 { true } else { false } }.count == 2)
                // The store holds what it holds when launched on the same documents in version 2.
                let current = try Self.launch(version: 2, in: version2Folder, notices: Recorder())
                #expect(purchases.purchaseLedger == current.purchaseLedger)
                #expect(purchases.ownedBoostItems == current.ownedBoostItems)
                #expect(purchases.premiumExpiry == current.premiumExpiry)
                #expect(purchases.purchaseLedger.unreadableEntries.isEmpty && !purchases.purchaseLedger.entries.isEmpty)
                // A relaunch finds nothing more to migrate.
                let relaunchNotices = Recorder<StorageNotice>()
                _ = PurchaseManager(
                    storage: FileStorage(folder: folder, reportNotice: relaunchNotices.append), center: NotificationCenter(),
                    watching: .off, reportIssue: { Issue.record("unexpected report \($0)") })
                #expect(relaunchNotices.values.isEmpty)
                #expect(try Self.files(in: folder) == files)
            }
        }
    }

    @Test func aVersion1EntryOfAnUnknownKindIsKeptAsItWasStored() throws {
        try withTemporaryFolder { folder in
            let unknown = #"{"date":768560000.5,"kind":{"boostItemsGifted":{"_0":2}}}"#
            let document = """
                {"formatVersion": 1, "value": {"entries": [
                  {"date": 768560000.25, "kind": {"boostItemsBought": {"_0": 3}}},
                  \(unknown),
                  {"date": 768560001.25, "kind": {"boostItemsBought": {"_0": 9999999}}}
                ]}}
                """
            try Data(document.utf8).write(to: folder.appending(path: "purchases.json"))
            let issues = Recorder<StoreIssue>()
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder, reportNotice: { _ in }),
                wallClock: ManualWallClock(now: Date(timeIntervalSinceReferenceDate: 768_600_000)).wallClock,
                center: NotificationCenter(), watching: .off, reportIssue: issues.append)
            // The readable entry counts; the unknown kind and the out-of-range count are kept.
            #expect(purchases.ownedBoostItems == 3)
            let kept = purchases.purchaseLedger.unreadableEntries
            #expect(kept.count == 2)
            #expect(kept.first?.storedJSON == #"{"date":768560000.5,"kind":{"boostItemsGifted":{"_0":2}}}"#)
            #expect(kept.last?.reason.contains("9999999") == true)
            #expect(issues.values.contains { "\($0)".contains("2 entries could not be read") })
            // The migrated document holds all three, and loads the same way again.
            let again = try FileStorage(folder: folder, reportNotice: { _ in }).load(
                StoreDocument(key: "purchases", default: PurchaseLedger(), migrations: Self.ledger))
            #expect(again.value.entries == purchases.purchaseLedger.entries)
            #expect(again.value.unreadableEntries.count == 2)
        }
    }
}
