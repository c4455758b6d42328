import Foundation
import SingletonStores
import Testing

/// A snapshot of several stores for a bug report, each store hiding its own secrets.
@Suite("StoreSnapshot")
struct StoreSnapshotTests {
    struct Session: Codable, Sendable, Equatable, SnapshotRedactable {
        var userID = "u-1"
        var token = "secret-token"
        var since = Date(timeIntervalSince1970: -3_600)

        func redactedForSnapshot() -> Session {
            var copy = self
            copy.token = StoreSnapshot.redacted
            return copy
        }
    }

    @Test func valuesOfEveryShapeGoInOneDocumentWithSecretsRedacted() throws {
        var snapshot = StoreSnapshot()
        try snapshot.add("session", Session())
        try snapshot.add("count", 3)
        try snapshot.add("note", "a \u{1B} b")
        try snapshot.add("draft", ValueStore(stub: ["x"]).value)
        #expect(snapshot.storeNames == ["count", "draft", "note", "session"])
        let text = String(decoding: try snapshot.json(), as: UTF8.self)
        #expect(!text.contains("secret-token"))
        #expect(text.contains("\"token\" : \"<redacted>\""))
        #expect(text.contains("\"since\" : \"1969-12-31T23:00:00Z\""), "dates as the documents write them")
        #expect(!text.contains("\u{1B}"), "control characters are escaped by JSON")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["formatVersion"] as? Int == 1)
        let stores = try #require(object["stores"] as? [String: Any])
        #expect(stores["count"] as? Int == 3)
        #expect(stores["draft"] as? [String] == ["x"])
        #expect((stores["session"] as? [String: Any])?["userID"] as? String == "u-1")
    }

    /// JSON leaves C1 controls, bidirectional overrides and isolates, and the line separators
    /// raw: the snapshot escapes them, and still reads back as the same text.
    @Test func controlAndFormattingCharactersAreEscapedAndReadBackTheSame() throws {
        let note =
            "CSI \u{9B}31m NEL \u{85} DEL \u{7F} RLO \u{202E}abc\u{202C} LRI \u{2066}x\u{2069} LRM \u{200E} ALM \u{061C} LS \u{2028}"
        var snapshot = StoreSnapshot()
        try snapshot.add("note", note)
        let text = String(decoding: try snapshot.json(), as: UTF8.self)
        let raw = text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        #expect(raw.isEmpty, "\(raw.map(\.value))")
        #expect(text.contains(#"\u009B31m"#) && text.contains(#"\u202E"#) && text.contains(#"\u061C"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["stores"] as? [String: Any])?["note"] as? String == note)
    }

    @Test func aValueThatCannotBeEncodedIsATypedError() {
        var snapshot = StoreSnapshot()
        #expect(throws: StorageError.self) { try snapshot.add("far", Date(timeIntervalSince1970: 1e12)) }
        #expect(snapshot.storeNames.isEmpty)
    }
}
