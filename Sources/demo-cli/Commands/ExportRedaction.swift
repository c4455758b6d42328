import Foundation
import SingletonStores
import Stores

/// What `export` shows of the text in the stores: by default only text that cannot be the
/// user's own words — a value from a known set at a field that takes one, a date, an
/// identifier the library made. Every other text is redacted, in every store, so that a field
/// added later is redacted until it is listed here.
///
/// The rule, for each text value of the document, by the name of the field that holds it:
/// - a field of a known set (`kind`, `rank`, the store `apiTarget`) shows a value of that set;
/// - a date field (`date`, `endDate`, `premiumExpiry`) shows an ISO 8601 date;
/// - an identifier field (`id`, `bootID`) shows a UUID;
/// - `<redacted>`, and an empty text, stay as they are;
/// - anything else, or another value in one of those fields, reads `<redacted>`.
///
/// With `--include-personal`, text is shown as stored, except what the stores' types redact
/// themselves (account ids and receipt ids), which no option shows.
enum ExportRedaction {
    /// The values each field of a known set may show.
    static let knownValues: [String: Set<String>] = [
        "kind": ["boostItemsBought", "boostItemUsed", "boostItemRefunded", "premiumBought"],
        "rank": Set([UserRank.regular, .silver, .gold].map(\.rawValue)),
        "apiTarget": Set(APITarget.allCases.map(\.rawValue)),
    ]

    /// The fields that hold dates.
    static let dateFields: Set<String> = ["date", "endDate", "premiumExpiry"]

    /// The fields that hold identifiers the library made (UUIDs).
    static let identifierFields: Set<String> = ["id", "bootID"]

    /// `json` (a `StoreSnapshot`'s document) with every text the rule does not allow replaced
    /// by `StoreSnapshot.redacted`, pretty-printed with sorted keys and its controls escaped as
    /// the snapshot's are.
    ///
    /// - Throws: When `json` is not a JSON document (a snapshot always is).
    static func redactingFreeText(in json: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        let redacted = redact(object, field: nil)
        let data = try JSONSerialization.data(
            withJSONObject: redacted, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return Data(String(decoding: data, as: UTF8.self).escapingControlCharactersInJSON.utf8)
    }

    /// `value` with its text redacted; `field` is the name it is stored under.
    private static func redact(_ value: Any, field: String?) -> Any {
        switch value {
        case let text as String:
            return isShown(text, field: field) ? text : StoreSnapshot.redacted
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { key, member in (key, redact(member, field: key)) })
        case let array as [Any]:
            return array.map { redact($0, field: field) }
        default:
            return value
        }
    }

    /// Whether `text`, stored under `field`, may be shown.
    static func isShown(_ text: String, field: String?) -> Bool {
        if text.isEmpty || text == StoreSnapshot.redacted { return true }
        guard let field else { return false }
        if let known = knownValues[field] { return known.contains(text) }
        if dateFields.contains(field) { return isDate(text) }
        if identifierFields.contains(field) { return UUID(uuidString: text) != nil }
        return false
    }

    /// Whether `text` is an ISO 8601 date as the stores write one: `2026-11-27T21:35:15Z`,
    /// with up to nine digits of fractional seconds.
    static func isDate(_ text: String) -> Bool {
        let digits = Array(text.utf8)
        let pattern = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard digits.count >= pattern.count + 1, digits.count <= pattern.count + 11, digits.last == UInt8(ascii: "Z") else {
            return false
        }
        for (byte, expected) in zip(digits, pattern) {
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if expected == UInt8(ascii: "d") ? !isDigit : byte != expected { return false }
        }
        let fraction = digits[pattern.count..<(digits.count - 1)]
        guard !fraction.isEmpty else { return true }
        return fraction.first == UInt8(ascii: ".") && fraction.count >= 2
            && fraction.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
