import Foundation

/// The versions of the document format, and the coders that read and write each.
///
/// - **Version 2** (written now): dates are ISO 8601 text in UTC, exact
///   (`"2025-05-10T08:53:20.4316511Z"`, see ``DocumentDate``).
/// - **Version 1** (read only): dates are numbers, seconds since 2001-01-01 (`JSONEncoder`'s
///   default), read only within the years 0000–9999, the dates version 2 can write back. The
///   built-in stores also wrote enums with payloads in the shape Swift
///   synthesizes (`{"boostItemsBought": {"_0": 3}}`); their types read it when the decoder's
///   ``Swift/Decoder/documentFormatVersion`` is 1.
///
/// A document is rewritten in the current version the next time its value changes.
enum DocumentFormat {
    /// The version this build writes, and the newest it reads.
    static let current = 2

    /// The oldest version this build reads.
    static let oldestReadable = 1

    /// One ``encoder()`` for every write of the process: its settings are never changed after it
    /// is made, and an encoder's `encode` keeps its state in the call (`JSONEncoder` is
    /// `Sendable`), so threads share it; this spares making one at each write.
    static let sharedEncoder = encoder()

    /// One decoder of the current version whose `userInfo` is never changed after it is made,
    /// for the documents read without a value version expected (stores without migrations);
    /// shared as ``sharedEncoder`` is.
    static let sharedCurrentDecoder = decoder(version: current)

    /// The encoder of the current version: pretty-printed with sorted keys, so that equal values
    /// give equal bytes, and exact ISO 8601 dates.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let text: String
            do throws(DocumentDate.UnwritableDate) { text = try DocumentDate.string(from: date) } catch {
                throw EncodingError.invalidValue(
                    date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: error.description))
            }
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
        return encoder
    }

    /// The decoder of the value of a document of `version` (between ``oldestReadable`` and
    /// ``current``); the value's types see the version as `decoder.documentFormatVersion`.
    static func decoder(version: Int) -> JSONDecoder {
        let decoder = JSONDecoder()
        if let key = CodingUserInfoKey.documentFormatVersion {
            decoder.userInfo[key] = version
        }
        decoder.dateDecodingStrategy = .custom(version == 1 ? readVersion1Date : readDate)
        return decoder
    }

    /// A date of version 2: ISO 8601 text.
    private static func readDate(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = DocumentDate.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "“\(text.prefix(40))” is not an ISO 8601 date such as 2025-05-10T08:53:20Z")
        }
        return date
    }
}

extension CodingUserInfoKey {
    /// Where ``DocumentFormat/decoder(version:)`` puts the version of the document it reads.
    /// (`CodingUserInfoKey(rawValue:)` is failable in signature only; it accepts any string.)
    static let documentFormatVersion = CodingUserInfoKey(rawValue: "SingletonStores.documentFormatVersion")
}
