import Foundation
import SingletonStores
@testable import Stores

/// A checked-in document written by an earlier release (`Tests/Fixtures/v<N>/<name>.json`), and
/// the value it must load as.
///
/// The version-1 files were written by the release that wrote version 1, through its stores and
/// its `FileStorage`; they are never edited by hand.
struct DocumentFixture: Sendable, CustomStringConvertible {
    /// The file name without `.json`.
    let name: String
    /// The store key the document is read under.
    let key: String
    /// Loads the document from `storage` and says what differs from the expected value, or
    /// `nil` when it loaded as expected.
    let check: @Sendable (FileStorage) throws -> String?
    /// Saves the expected value to `storage`, in the current format.
    let resave: @Sendable (FileStorage) throws -> Void

    /// A fixture that must load as `expected`.
    init<Value: Codable & Sendable & Equatable>(_ name: String, key: String, _ expected: Value) {
        self.name = name
        self.key = key
        check = { storage in
            let load = try storage.load(StoreDocument<Value>(key: key, default: expected))
            if let recovery = load.recovery { return "kept aside: \(recovery)" }
            if !load.isStored { return "not found" }
            return load.value == expected ? nil : "loaded \(load.value), expected \(expected)"
        }
        resave = { storage in try storage.save(expected, to: StoreDocument(key: key, default: expected)) }
    }

    var description: String { name }

    /// The folder of the fixtures of format `version`.
    static func folder(version: Int) -> URL {
        URL(filePath: #filePath).deletingLastPathComponent()  // Tests/StoresTests/Persistence
            .deletingLastPathComponent().deletingLastPathComponent()  // Tests
            .appending(path: "Fixtures/v\(version)", directoryHint: .isDirectory)
    }

    /// The checked-in file of this fixture in format `version`.
    func file(version: Int) -> URL {
        Self.folder(version: version).appending(path: "\(name).json", directoryHint: .notDirectory)
    }

    /// Copies the fixture into `folder` as the document of its key.
    func install(version: Int, in folder: URL) throws {
        try Data(contentsOf: file(version: version)).write(to: folder.appending(path: "\(key).json"))
    }
}

extension DocumentFixture {
    /// When the fixtures were written: a wall-clock reading with the precision `Date()` has.
    private static func date(_ secondsSinceReferenceDate: TimeInterval) -> Date {
        Date(timeIntervalSinceReferenceDate: secondsSinceReferenceDate)
    }

    /// Every document of every store, with every optional field present and absent, every enum
    /// case with a payload, and every date field.
    static let all: [DocumentFixture] = [
        DocumentFixture("boost-running", key: "boost", CountdownRecord(endDate: date(768_561_800.4316511))),
        DocumentFixture("boost-paused", key: "boost", CountdownRecord(pausedRemainingSeconds: 1_045.75)),
        DocumentFixture(
            "boost-from-item", key: "boost",
            CountdownRecord(endDate: date(768_561_907.9316511), settledGrantID: "0B3FE868-7AFF-472B-94CA-7C0115B1054C")),
        DocumentFixture("boost-stopped", key: "boost", CountdownRecord(settledGrantID: "0B3FE868-7AFF-472B-94CA-7C0115B1054C")),
        DocumentFixture(
            "purchases", key: "purchases",
            ledger([
                LedgerEntry(
                    kind: .boostItemsBought(3), date: date(768_560_000.4316511), receiptID: "4C0D1B6E-59A2-4B8F-9E1D-2A7C5F3E8B90"
                ),
                LedgerEntry(kind: .boostItemUsed, date: date(768_560_060.6816511)),
                LedgerEntry(kind: .boostItemRefunded, date: date(768_560_060.9316511)),
                LedgerEntry(
                    kind: .premiumBought(days: 30), date: date(768_563_600.4316511),
                    receiptID: "9F2E7A41-0B3C-4D5E-8F6A-1B2C3D4E5F60"),
                LedgerEntry(
                    kind: .boostItemUsed, date: date(768_567_200.5566511),
                    boost: BoostGrant(id: "7E1F2A3B-4C5D-4E6F-8A9B-0C1D2E3F4A5B", endDate: date(768_569_000.5566511))),
            ])),
        DocumentFixture(
            "purchases-from-store", key: "purchases",
            ledger([
                LedgerEntry(
                    kind: .boostItemsBought(3), date: date(768_560_000.4316511), receiptID: "AC027E00-66ED-46BD-B2C1-44C398A91B60"
                ),
                LedgerEntry(
                    kind: .premiumBought(days: 30), date: date(768_560_095.4316511),
                    receiptID: "7B56A514-6261-4B67-B70F-98AFB10073EA"),
                LedgerEntry(
                    kind: .boostItemUsed, date: date(768_560_107.9316511),
                    boost: BoostGrant(id: "0B3FE868-7AFF-472B-94CA-7C0115B1054C", endDate: date(768_561_907.9316511))),
            ])),
        DocumentFixture("purchases-empty", key: "purchases", PurchaseLedger()),
        DocumentFixture(
            "receipts", key: "receipts",
            [
                PurchaseReceipt(
                    id: "AC027E00-66ED-46BD-B2C1-44C398A91B60", product: .boostItems(3), date: date(768_560_000.4316511)),
                PurchaseReceipt(
                    id: "7B56A514-6261-4B67-B70F-98AFB10073EA", product: .premium(days: 30), date: date(768_560_095.4316511)),
            ]),
        DocumentFixture(
            "profile-full", key: "profile",
            UserProfile(id: "u-1029", nickname: "Aki", gender: .female, rank: .gold, isBetaUser: true)),
        DocumentFixture("profile-minimal", key: "profile", UserProfile(nickname: "Mei")),
        DocumentFixture(
            "profile-unknown-codes", key: "profile",
            {
                var profile = UserProfile(id: "u-2048", nickname: "Sora", rank: UserRank(rawValue: "diamond"))
                profile.genderCode = 7
                return profile
            }()),
        DocumentFixture("apiTarget", key: "apiTarget", APITarget.dev01),
    ]

    private static func ledger(_ entries: [LedgerEntry]) -> PurchaseLedger {
        var ledger = PurchaseLedger()
        for entry in entries {
            ledger.append(entry.kind, at: entry.date, receiptID: entry.receiptID, boost: entry.boost)
        }
        return ledger
    }
}
