import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing

@testable import Stores

/// A receipt as version 1 of its document stored it: the product in the shape Swift synthesizes.
private struct PurchaseReceiptVersion1: Decodable, Sendable {
    var id: String
    var product: PurchaseProductVersion1
    var date: Date

    var current: PurchaseReceipt { PurchaseReceipt(id: id, product: product.current, date: date) }
}

/// A ledger entry as version 1 stored it.
private struct LedgerEntryVersion1: Decodable, Sendable {
    var kind: LedgerEntryKindVersion1
    var date: Date
    var receiptID: String?
    var boost: BoostGrant?
}

/// The ledger as version 1 stored it: every entry, in order.
private struct PurchaseLedgerVersion1: Decodable, Sendable {
    var entries: [LedgerEntryVersion1]

    var current: PurchaseLedger {
        var ledger = PurchaseLedger()
        for entry in entries {
            ledger.append(entry.kind.current, at: entry.date, receiptID: entry.receiptID, boost: entry.boost)
        }
        return ledger
    }
}

/// The built-in purchase documents changed shape from version 1 to 2 (enums with payloads) and
/// read the old shape by hand, through `Decoder.documentFormatVersion`. These tests show that
/// `DocumentMigrations` serves that case as well: one typed step from the old shape, run over
/// the checked-in version-1 documents, gives the very value the hand-written reading gives,
/// while a version-2 document is not migrated.
@Suite("Built-in documents through DocumentMigrations")
struct BuiltInDocumentMigrationsTests {
    /// Version 1 of a built-in value is what format 1 wrote; version 2 what format 2 writes,
    /// whether or not the document records a value version.
    private static func builtIn<Value>(_ type: Value.Type) -> DocumentMigrations<Value> {
        DocumentMigrations<Value>(version: 2).unversionedDocuments { formatVersion in formatVersion == 1 ? 1 : 2 }
    }

    private static let receipts = builtIn([PurchaseReceipt].self)
        .step(from: 1) { (old: [PurchaseReceiptVersion1]) in old.map(\.current) }

    private static let ledger = builtIn(PurchaseLedger.self)
        .step(from: 1) { (old: PurchaseLedgerVersion1) in old.current }

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
                let migrated = try storage.load(Value.self, forKey: key, default: defaultValue, migrations: migrations)
                #expect(migrated.recovery == nil && migrated.isStored)
                let byHand = try FileStorage(folder: handFolder).load(Value.self, forKey: key, default: defaultValue)
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
}
