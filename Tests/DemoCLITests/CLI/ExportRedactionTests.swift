import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Stores
import Testing
@testable import demo_cli

/// `export` redacts every free text by default — the nickname, and a rank (or any text field)
/// holding what the user or a server wrote — and shows text only from known sets, dates and
/// identifiers; `--include-personal` shows free text as stored, never account or receipt ids.
@Suite("demo-cli export redacts every free text")
struct ExportRedactionTests {
    /// A profile whose rank is free text (a server may send any rank; a planted document any text).
    private static let profile = UserProfile(
        id: "account-42", nickname: "Aki", gender: .female, rank: UserRank(rawValue: "my diary: I moved to Osaka"))

    /// Exports a data folder holding `profile` and a bought boost item; the stores' part of the
    /// document.
    private static func export(_ profile: UserProfile, includingPersonal: Bool = false) async throws -> [String: Any] {
        try await withTemporaryFolder { folder in
            try FileStorage(folder: folder).save(profile, to: StoreDocument(key: "profile", default: UserProfile()))
            let path = folder.path(percentEncoded: false)
            let bought = CapturedOutput()
            let buy = await DemoCLI.run(
                arguments: ["--data-dir", path, "purchase", "buy"], environment: [:], console: bought.console(isTerminal: false))
            #expect(buy == .success, "\(bought.standardError)")
            let output = CapturedOutput()
            let status = await DemoCLI.run(
                arguments: ["--data-dir", path, "export"] + (includingPersonal ? ["--include-personal"] : []),
                environment: [:], console: output.console(isTerminal: false))
            #expect(status == .success, "\(output.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
            return try #require(object["stores"] as? [String: Any])
        }
    }

    @Test func aFreeTextRankIsRedactedByDefaultAsTheNicknameIs() async throws {
        let stores = try await Self.export(Self.profile)
        let profile = try #require(stores["profile"] as? [String: Any])
        #expect(profile["rank"] as? String == "<redacted>")
        #expect(profile["nickname"] as? String == "<redacted>")
        #expect(profile["id"] as? String == "<redacted>")
        #expect(profile["genderCode"] as? Int == 2, "numbers are not text")
        #expect(stores["apiTarget"] as? String == "production", "a value of a known set")
        let entries = try #require((stores["purchases"] as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.first?["kind"] as? String == "boostItemsBought")
        #expect(entries.first?["receiptID"] as? String == "<redacted>")
        let date = try #require(entries.first?["date"] as? String)
        #expect(ExportRedaction.isDate(date), "a date is shown: \(date)")
    }

    @Test func aKnownRankIsShown() async throws {
        var profile = Self.profile
        profile.rank = .gold
        let stores = try await Self.export(profile)
        #expect((stores["profile"] as? [String: Any])?["rank"] as? String == "gold")
    }

    @Test func includingPersonalShowsFreeTextAsStoredButNeverTheIDs() async throws {
        let stores = try await Self.export(Self.profile, includingPersonal: true)
        let profile = try #require(stores["profile"] as? [String: Any])
        #expect(profile["rank"] as? String == "my diary: I moved to Osaka")
        #expect(profile["nickname"] as? String == "Aki")
        #expect(profile["id"] as? String == "<redacted>")
        let entries = try #require((stores["purchases"] as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.first?["receiptID"] as? String == "<redacted>")
    }

    /// A field added later holds free text until it is listed: the rule redacts by default.
    @Test func theRuleRedactsEveryTextItDoesNotKnow() throws {
        #expect(!ExportRedaction.isShown("call me at 555-0100", field: "note"))
        #expect(!ExportRedaction.isShown("gold", field: "note"), "a known value, but not in a field of that set")
        #expect(!ExportRedaction.isShown("diamond", field: "rank"), "a rank the app does not know")
        #expect(!ExportRedaction.isShown("Aki", field: nil))
        #expect(ExportRedaction.isShown("", field: "nickname"))
        #expect(ExportRedaction.isShown("<redacted>", field: "nickname"))
        #expect(ExportRedaction.isShown("2026-11-27T21:35:15.1033558Z", field: "date"))
        #expect(ExportRedaction.isShown("2026-11-27T21:35:15Z", field: "endDate"))
        #expect(!ExportRedaction.isShown("2026-11-27T21:35:15Z and a secret", field: "date"))
        #expect(!ExportRedaction.isShown("next Tuesday", field: "date"))
        #expect(ExportRedaction.isShown("B773E081-7EF9-4017-A27F-2402AD2338E4", field: "id"))
        #expect(!ExportRedaction.isShown("account-42", field: "id"))
        let json = Data(#"{"stores": {"profile": {"note": "private", "rank": "silver", "tags": ["a", "b"]}}}"#.utf8)
        let redacted = try JSONSerialization.jsonObject(with: ExportRedaction.redactingFreeText(in: json)) as? [String: Any]
        let profile = (redacted?["stores"] as? [String: Any])?["profile"] as? [String: Any]
        #expect(profile?["note"] as? String == "<redacted>")
        #expect(profile?["rank"] as? String == "silver")
        #expect(profile?["tags"] as? [String] == ["<redacted>", "<redacted>"])
    }
}
