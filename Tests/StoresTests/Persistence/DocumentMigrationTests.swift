import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing
import Timers
import Stores

/// Format 2: what the stores write now. A version-1 document is rewritten as version 2 by the
/// next write through its store; every value is written exactly as its checked-in version-2
/// fixture and reads back equal; a newer document is kept aside.
@Suite("Documents are rewritten as version 2")
struct DocumentMigrationTests {
    /// The wall-clock time the fixtures were written at.
    private static let start = Date(timeIntervalSinceReferenceDate: 768_560_000.4316511)

    /// A date field and its value, as pretty-printed JSON shows them.
    private static var dateField: Regex<(Substring, Substring)> { #/"(?:date|endDate)" : ([^,\n]+)/# }
    /// An exact ISO 8601 date in UTC, as a JSON string.
    private static var isoDate: Regex<Substring> { #/"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z"/# }

    private static func text(of key: String, in folder: URL) throws -> String {
        try DocumentFileText.text(at: folder.appending(path: "\(key).json"))
    }

    /// The values of every date field of a document's text.
    private static func dates(in text: String) -> [Substring] {
        text.matches(of: dateField).map(\.output.1)
    }

    /// One change through the store that owns `key`, as the app would make it.
    private static func writeOnceThroughTheStore(key: String, folder: URL) async throws {
        let storage = FileStorage(folder: folder)
        let wall = ManualWallClock(now: start)
        switch key {
        case "boost":
            let boost = BoostTimeManager(
                clock: ManualClock(), wallClock: wall.wallClock, storage: storage, center: NotificationCenter(),
                reportIssue: { Issue.record("unexpected report \($0)") })
            if boost.isInBoostTime || boost.isPaused {
                boost.extend(by: 60)
            } else {
                boost.startCountDown(duration: 60)
            }
        case "purchases", "receipts":
            let purchases = PurchaseManager(
                storage: storage, wallClock: wall.wallClock, center: NotificationCenter(),
                reportIssue: { Issue.record("unexpected report \($0)") })
            try await purchases.buy(.boostItems(1))
        case "profile":
            let profile = UserProfileStore(storage: storage, center: NotificationCenter(), reportIssue: { _ in })
            try profile.setNickname("Yui")
        case "apiTarget":
            let target = APITargetStore(
                storage: storage, center: NotificationCenter(), reportIssue: { Issue.record("unexpected report \($0)") })
            try target.select(.dev02)
        default:
            Issue.record("no store writes “\(key)”")
        }
    }

    @Test(arguments: DocumentFixture.all)
    func oneWriteThroughTheStoreRewritesAVersion1DocumentAsVersion2(fixture: DocumentFixture) async throws {
        try await withTemporaryFolder { folder in
            try fixture.install(version: 1, in: folder)
            try await Self.writeOnceThroughTheStore(key: fixture.key, folder: folder)
            let text = try Self.text(of: fixture.key, in: folder)
            #expect(text.hasPrefix("{\n  \"formatVersion\" : 2,\n"))
            #expect(!text.contains(#""_0""#))
            for date in Self.dates(in: text) {
                #expect(date.wholeMatch(of: Self.isoDate) != nil, "\(date) is not an ISO 8601 date")
            }
            // Profiles, the API target and a paused boost hold no date; every other document does.
            let holdsDates = !["profile", "apiTarget"].contains(fixture.key) && fixture.name != "boost-paused"
            #expect(Self.dates(in: text).isEmpty == !holdsDates)
            // Every date the ledger and the receipts held is still there, as ISO 8601 text (the
            // boost's write moves its end).
            let written = try String(contentsOf: fixture.file(version: 2), encoding: .utf8)
            for date in Self.dates(in: written) where fixture.key != "boost" {
                #expect(text.contains(date), "\(date) was lost")
            }
        }
    }

    @Test func theRewrittenLedgerReadsAsAPersonWouldWriteIt() async throws {
        try await withTemporaryFolder { folder in
            let fixture = try #require(DocumentFixture.all.first { $0.name == "purchases" })
            try fixture.install(version: 1, in: folder)
            try await Self.writeOnceThroughTheStore(key: "purchases", folder: folder)
            let text = try Self.text(of: "purchases", in: folder)
            #expect(
                text.contains(
                    """
                          {
                            "count" : 3,
                            "date" : "2025-05-10T08:53:20.4316511Z",
                            "kind" : "boostItemsBought",
                            "receiptID" : "4C0D1B6E-59A2-4B8F-9E1D-2A7C5F3E8B90"
                          },
                    """))
            #expect(text.contains(#""days" : 30,"#))
            #expect(text.contains(#""endDate" : "2025-05-10T11:23:20.5566511Z","#))
            #expect(!text.contains("_0"))
        }
    }

    @Test(arguments: DocumentFixture.all)
    func aVersion2RoundTripIsLossless(fixture: DocumentFixture) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try fixture.resave(storage)
            let text = try Self.text(of: fixture.key, in: folder)
            let expected = try String(contentsOf: fixture.file(version: 2), encoding: .utf8)
            // The document now records the store that wrote it, and is otherwise unchanged.
            let store = try #require(text.firstMatch(of: /\n  "store" : "[^"\n]*",/))
            #expect(
                text.replacingCharacters(in: store.range, with: "") == expected,
                "the value is written exactly as Tests/Fixtures/v2/\(fixture.name).json")
            #expect(try fixture.check(storage) == nil)
        }
    }

    @Test(arguments: DocumentFixture.all)
    func everyVersion2FixtureLoads(fixture: DocumentFixture) throws {
        try withTemporaryFolder { folder in
            try fixture.install(version: 2, in: folder)
            #expect(try fixture.check(FileStorage(folder: folder)) == nil)
        }
    }

    @Test func aVersion3DocumentStaysInPlaceAndTheStoreRefusesToWriteIt() throws {
        try withTemporaryFolder { folder in
            let fixture = try #require(DocumentFixture.all.first { $0.name == "purchases" })
            let version2 = try String(contentsOf: fixture.file(version: 2), encoding: .utf8)
            let version3 = version2.replacingOccurrences(of: #""formatVersion" : 2"#, with: #""formatVersion" : 3"#)
            let file = folder.appending(path: "purchases.json")
            try Data(version3.utf8).write(to: file)
            let reports = Recorder<StoreIssue>()
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder), center: NotificationCenter(), reportIssue: { reports.append($0) })
            #expect(purchases.purchaseLedger == PurchaseLedger())
            guard case .newerFormatLeftInPlace(_, found: 3, supported: 2)? = purchases.loadProblem else {
                Issue.record("expected a newer-format problem, got \(String(describing: purchases.loadProblem))")
                return
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == version3, "left in place as it was")
            #expect(reports.values.count == 1)
        }
    }
}
