import Foundation
import SingletonStoresTestSupport
import Testing

/// The first launch after a long purchase history, through the binary: a read-only command
/// reads the old ledger once and compacts it, and what follows reads only the compacted one.
@Suite("demo-cli after a long purchase history", .hangLimit, .ownThread)
struct LongHistoryBinaryTests {
    /// A ledger of `count` entries as earlier versions wrote it: two items bought, one spent,
    /// over and over.
    static func writeOldLedger(entries count: Int, to folder: URL) throws {
        let entries = (0..<count).map { index in
            index % 3 == 2
                ? #"{"date": "2025-05-10T08:53:20Z", "kind": "boostItemUsed"}"#
                : #"{"count": 1, "date": "2025-05-10T08:53:20Z", "kind": "boostItemsBought", "receiptID": "r-\#(index)"}"#
        }
        let text = #"{"formatVersion": 2, "value": {"entries": [\#(entries.joined(separator: ","))]}}"#
        try Data(text.utf8).write(to: folder.appending(path: "purchases.json"))
    }

    @Test func aReadOnlyLaunchCompactsAnOldLedgerAndExportPrintsTheCompactedOne() throws {
        try withDemoBinary { binary in
            try Self.writeOldLedger(entries: 3_000, to: binary.dataFolder)
            let file = binary.dataFolder.appending(path: "purchases.json")
            let size = {
                try #require(try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))[.size] as? Int)
            }
            #expect(try size() > 128 * 1_024)
            let show = try binary.run(["purchase", "show"])
            #expect(show.status == 0, "\(show)")
            #expect(show.lines.first == "boost items: 1000", "\(show.lines)")
            #expect(show.standardError.isEmpty, "\(show.standardError)")
            #expect(try size() < 64 * 1_024, "compacted by a command that changed nothing")
            let names = try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false))
            #expect(!names.contains { $0.hasPrefix("purchases~") }, "\(names)")
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 1000")

            let export = try binary.run(["export"])
            #expect(export.status == 0, "\(export)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
            let ledger = try #require((object["stores"] as? [String: Any])?["purchases"] as? [String: Any])
            #expect((ledger["checkpoint"] as? [String: Any])?["entryCount"] as? Int == 3_000 - 64)
            #expect((ledger["entriesSinceCheckpoint"] as? [Any])?.count == 64)
        }
    }
}
