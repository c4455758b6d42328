// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the change log and the snapshot (Sources/SingletonStores/Core),
// verbatim between the markers; QuickStartTests/DocCommentSnippetTests checks that they agree.
import Foundation
import SingletonStores
import Testing

// Doc "SingletonStores/Core/StoreSnapshot.swift" snippet 1: begin
struct Account: Codable, Sendable, Equatable, SnapshotRedactable {
    var userID = ""
    var token = ""
    func redactedForSnapshot() -> Account {
        var copy = self
        copy.token = StoreSnapshot.redacted
        return copy
    }
}
// Doc "SingletonStores/Core/StoreSnapshot.swift" snippet 1: end

@Test func snapshotDocExampleRedactsTheToken() throws {
// Doc "SingletonStores/Core/StoreSnapshot.swift" snippet 2: begin
var snapshot = StoreSnapshot()
try snapshot.add("account", Account(userID: "u-1", token: "t-1"))  // the token is redacted
try snapshot.add("cart", ["socks", "hat"])
let json = try snapshot.json()                                      // pretty-printed, sorted keys
// Doc "SingletonStores/Core/StoreSnapshot.swift" snippet 2: end
    let text = String(decoding: json, as: UTF8.self)
    #expect(text.contains("\"userID\" : \"u-1\"") && !text.contains("t-1"))
}

/// Compiled, not run: it logs the default center, which other tests post to.
func changeLogDocExample() {
// Doc "SingletonStores/Core/StoreChangeLog.swift" snippet 1: begin
let log = StoreChangeLog.start { entry in
    print(entry)   // "purchases: PurchaseLedger(…) → PurchaseLedger(…) (another process)"
}
// …
log.cancel()       // or drop the token
// Doc "SingletonStores/Core/StoreChangeLog.swift" snippet 1: end
}
