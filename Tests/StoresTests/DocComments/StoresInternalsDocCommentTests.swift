// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the built-in stores' internals (Sources/Stores), verbatim between
// the markers, so that they always compile; QuickStartTests/DocCommentSnippetTests checks that
// they match. They run on temporary folders, with expectations after each example.
import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing
@testable import Stores

@Suite struct StoresInternalsDocCommentTests {
    @Test func ledgerDecoding() throws {
        try withTemporaryFolder { folder in
            // A ledger of three purchases, as earlier versions left it: one list, never compacted.
            let entry = #"{"count": 1, "date": "2025-05-10T08:53:20Z", "kind": "boostItemsBought", "receiptID": "r-%d"}"#
            let list = (1...3).map { String(format: entry, $0) }.joined(separator: ", ")
            try Data(#"{"formatVersion": 2, "value": {"entries": [\#(list)]}}"#.utf8)
                .write(to: folder.appending(path: "purchases.json"))
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
// Doc "Stores/Purchase/LedgerDecoding.swift" snippet 1: begin
let tally = LedgerDecoding.Tally()
// Not watching: news of the launch's own write could be read again, and counted, meanwhile.
LedgerDecoding.$tally.withValue(tally) { _ = PurchaseManager(storage: storage, watching: .off) }
let entries = tally.counts.entries   // ledger entries decoded by the launch
// Doc "Stores/Purchase/LedgerDecoding.swift" snippet 1: end
            #expect(entries == 3)
        }
    }
}
