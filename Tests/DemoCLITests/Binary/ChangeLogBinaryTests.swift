import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// `--log-changes`: each change the stores commit, one escaped line on standard error.
@Suite("demo-cli --log-changes", .hangLimit, .ownThread)
struct ChangeLogBinaryTests {
    @Test func eachCommittedChangeIsOneLineOnStandardError() throws {
        try withDemoBinary { binary in
            let set = try binary.run(["--log-changes", "profile", "set", "--nickname", "Aki\u{1B}[2J"])
            #expect(set.status == 0, "\(set)")
            let changes = set.errorLines.filter { $0.hasPrefix("demo-cli: change: ") }
            #expect(changes.count == 1, "\(set.errorLines)")
            #expect(changes.first?.contains("SingletonStores.UserProfileStore.changed: ") == true)
            #expect(changes.first?.contains("u{1B}[2J") == true, "stored text is escaped: \(changes)")
            #expect(!set.standardError.contains("\u{1B}"))

            let buy = try binary.run(["purchase", "buy", "--items", "2", "--log-changes"])
            let ledger = buy.errorLines.filter { $0.hasPrefix("demo-cli: change: SingletonStores.PurchaseManager.ledger: ") }
            #expect(ledger.count == 1, "\(buy.errorLines)")
            #expect(ledger.allSatisfy { $0.count < 600 }, "each side is cut to 200 characters")

            let quiet = try binary.run(["profile", "set", "--nickname", "Kei"])
            #expect(!quiet.standardError.contains("change:"), "nothing is logged without the option")
        }
    }
}

/// `export`: every store in one JSON document, account ids, receipts and the nickname redacted.
@Suite("demo-cli export", .hangLimit, .ownThread)
struct ExportBinaryTests {
    /// A nickname of C1 controls, bidirectional overrides and isolates, and the Arabic letter mark.
    static let hostileNickname = "Aki\u{9B}31m\u{85}\u{202E}ikA\u{2066}\u{2069}\u{200F}\u{061C}\u{7F}"

    /// Whether `text` holds a character a terminal would act on or reorder by.
    static func holdsRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @Test func theNicknameIsRedactedUnlessAskedForAndItsControlsAreEscapedEither() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["profile", "set", "--nickname", Self.hostileNickname]).status == 0)
            for includingPersonal in [false, true] {
                let export = try binary.run(["export"] + (includingPersonal ? ["--include-personal"] : []))
                #expect(export.status == 0, "\(export)")
                #expect(!Self.holdsRawControls(export.standardOutput), "\(export.standardOutput.unicodeScalars.map(\.value))")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
                let profile = try #require((object["stores"] as? [String: Any])?["profile"] as? [String: Any])
                let nickname = profile["nickname"] as? String
                #expect(nickname == (includingPersonal ? Self.hostileNickname : "<redacted>"), "the JSON decodes to the text")
            }
        }
    }

    @Test func everyStoreIsInOneDocumentWithReceiptsRedacted() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "2"]).status == 0)
            #expect(try binary.run(["profile", "set", "--nickname", "Aki"]).status == 0)
            let export = try binary.run(["export"])
            #expect(export.status == 0, "\(export)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
            let stores = try #require(object["stores"] as? [String: Any])
            #expect(Set(stores.keys) == ["apiTarget", "boost", "profile", "purchases"])
            #expect((stores["profile"] as? [String: Any])?["nickname"] as? String == "<redacted>")
            let entries = try #require((stores["purchases"] as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["receiptID"] as? String == "<redacted>")
        }
    }
}
