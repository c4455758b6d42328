import Foundation

/// The on-disk shape of a store's document: `{"formatVersion": 2, "store": "Settings",
/// "value": {…}}`, and `"valueVersion"` when the store has ``DocumentMigrations``.
///
/// `"store"` is the ``StoreDocument/identity`` of the store that wrote it; documents written
/// before it existed have none. Readers of earlier versions ignore keys they do not know, so
/// they read such documents as before.
struct DocumentEnvelope<Value> {
    /// The version of this envelope format the document was written with.
    var formatVersion: Int
    /// The identity of the store that wrote the document; `nil` in documents written before
    /// stores recorded it.
    var store: String?
    /// The version of the store's value, for a store with migrations; absent means 1.
    var valueVersion: Int?
    /// The store's value.
    var value: Value

    /// An envelope of the current format.
    init(formatVersion: Int, store: String? = nil, valueVersion: Int? = nil, value: Value) {
        self.formatVersion = formatVersion
        self.store = store
        self.valueVersion = valueVersion
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, store, valueVersion, value
    }
}

extension DocumentEnvelope: Encodable where Value: Encodable {
    /// Encodes the envelope; `store` and `valueVersion` only when there is one, so a document
    /// written without them has the same bytes as before they existed.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encodeIfPresent(store, forKey: .store)
        try container.encodeIfPresent(valueVersion, forKey: .valueVersion)
        try container.encode(value, forKey: .value)
    }
}

extension DocumentEnvelope: Decodable where Value: Decodable {
    /// Decodes the envelope.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        store = try container.decodeIfPresent(String.self, forKey: .store)
        valueVersion = try container.decodeIfPresent(Int.self, forKey: .valueVersion)
        value = try container.decode(Value.self, forKey: .value)
    }
}

/// Just the versions of a document and the store that wrote it, read before the value so that
/// a newer document is never decoded with an older schema, nor another store's with this one's.
struct DocumentHeader: Decodable {
    /// The version of the envelope format the document was written with.
    var formatVersion: Int
    /// The version of the value, when the document records one.
    var valueVersion: Int?
    /// The identity of the store that wrote it, when the document records one.
    var store: String?
    /// Whether the document has a `"store"` that is not text (it is damaged, unless it is of a
    /// newer format, whose shape this build does not know).
    var storeIsInvalid = false

    private enum CodingKeys: String, CodingKey {
        case formatVersion, valueVersion, store
    }

    /// A header read some other way (a document read as a stream).
    init(formatVersion: Int, valueVersion: Int?, store: String?, storeIsInvalid: Bool) {
        self.formatVersion = formatVersion
        self.valueVersion = valueVersion
        self.store = store
        self.storeIsInvalid = storeIsInvalid
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        valueVersion = try container.decodeIfPresent(Int.self, forKey: .valueVersion)
        if container.contains(.store) {
            store = try? container.decode(String.self, forKey: .store)
            storeIsInvalid = store == nil
        }
    }

    /// What the header alone says about the document, for a store of `identity` (`nil`: any)
    /// with `migrations`: `nil` when its value is to be read, migrated or not.
    func verdict<Value>(identity: String?, migrations: DocumentMigrations<Value>?) -> DocumentContents<Value>? {
        if formatVersion > DocumentFormat.current { return .newerFormat(found: formatVersion) }
        if formatVersion < DocumentFormat.oldestReadable {
            return .bad(.corrupted(reason: "it has an unknown format version \(formatVersion)"))
        }
        if storeIsInvalid { return .bad(.corrupted(reason: "its “store” is not text")) }
        if let identity, let store, store != identity { return .otherStore(owner: store) }
        // A store without migrations reads any value version, as it always did.
        guard let migrations else { return nil }
        let found = valueVersion ?? migrations.versionOfUnversionedDocument(formatVersion: formatVersion)
        if found > migrations.version { return .newerValueVersion(found: found, supported: migrations.version) }
        if found < 1 { return .bad(.corrupted(reason: "it has an unknown value version \(found)")) }
        return nil
    }
}

/// A document decoded in one pass: only one of the current format, written by the store
/// expected (or by no store named), whose value version is the one expected
/// (``CurrentEnvelopeExpectation``, in the decoder's `userInfo`; for the shared decoder, which
/// has none, the caller checks ``store``). Any other throws, and the
/// document is read step by step instead.
private struct CurrentEnvelope<Value: Decodable>: Decodable {
    var value: Value
    var store: String?

    /// Where the decoder's `userInfo` holds the expected value version.
    static var expectationKey: CodingUserInfoKey? {
        CodingUserInfoKey(rawValue: "SingletonStores.currentEnvelopeExpectation")
    }

    /// Not a document this one-pass read decodes.
    struct NotCurrent: Error {}

    private enum CodingKeys: String, CodingKey {
        case formatVersion, store, valueVersion, value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .formatVersion) == DocumentFormat.current else { throw NotCurrent() }
        store = try container.decodeIfPresent(String.self, forKey: .store)
        let valueVersion = try container.decodeIfPresent(Int.self, forKey: .valueVersion)
        if let key = Self.expectationKey, let expected = decoder.userInfo[key] as? CurrentEnvelopeExpectation {
            if expected.valueVersion < 1 || (valueVersion ?? expected.unversionedAs) != expected.valueVersion {
                throw NotCurrent()
            }
            if let identity = expected.identity, let store, store != identity { throw NotCurrent() }
        }
        value = try container.decode(Value.self, forKey: .value)
    }
}

/// The value version and store a one-pass read expects: the migrations' current version, what
/// a document without one counts as, and the store's identity (`nil`: any).
private struct CurrentEnvelopeExpectation: Sendable {
    var valueVersion: Int
    var unversionedAs: Int
    var identity: String?
}

/// What a document's bytes turned out to hold.
enum DocumentContents<Value> {
    /// No document.
    case missing
    /// A valid document.
    case value(Value)
    /// A document of an older value version, migrated in memory from version `from`; its bytes
    /// are `original`.
    case migrated(Value, from: Int, original: Data)
    /// A document of an older value version whose migration failed at the step from `step`;
    /// it must be left in place.
    case unmigratable(from: Int, step: Int, reason: String)
    /// A document a newer version of the app wrote, in format `found`: it must be left in place.
    case newerFormat(found: Int)
    /// A document whose value is of a newer version than the store's migrations know: it must
    /// be left in place.
    case newerValueVersion(found: Int, supported: Int)
    /// A document another store wrote (`owner`, its identity): it must be left in place.
    case otherStore(owner: String)
    /// A document that must be moved aside, and why.
    case bad(DocumentProblem)
}

/// Encoding and decoding of document envelopes.
enum DocumentCoding {
    /// Encodes `value` in an envelope of the current format version, with stable, readable
    /// formatting (sorted keys, so that equal values give equal bytes).
    /// `valueVersion` is recorded when given (a store with migrations), and so is `store`, the
    /// identity of the store that writes it.
    static func encode<Value: Codable>(
        _ value: Value, key: String, store: String? = nil, valueVersion: Int? = nil
    ) throws(StorageError) -> Data {
        do {
            return try DocumentFormat.sharedEncoder.encode(
                DocumentEnvelope(formatVersion: DocumentFormat.current, store: store, valueVersion: valueVersion, value: value))
        } catch EncodingError.invalidValue(_, let context) {
            // The path within the store's value: the envelope's own "value" key left out.
            let path = context.codingPath.dropFirst().map(\.stringValue).joined(separator: ".")
            throw .encodingFailed(
                key: key, reason: path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at “\(path)”)")
        } catch {
            throw .encodingFailed(key: key, reason: String(describing: error))
        }
    }

    /// Decodes the contents of a document file as a `Value`, in the format of the version its
    /// header names. A document of a version newer than ``DocumentFormat/current``, of a newer
    /// value version, or written by a store other than `identity` (`nil`: any) is not decoded.
    /// With `migrations`, a document of an older value version is migrated in memory.
    static func decode<Value: Codable & Sendable>(
        _ type: Value.Type, from contents: FileContents, migrations: DocumentMigrations<Value>? = nil, identity: String? = nil
    ) -> DocumentContents<Value> {
        let data: Data
        switch contents {
        case .missing: return .missing
        case .notARegularFile, .tooLarge:
            return fileProblem(contents, limit: DocumentFile.readLimit).map { .bad($0) } ?? .missing
        case .bytes(let bytes): data = bytes
        }
        if data.isEmpty { return .bad(.corrupted(reason: "the file is empty")) }
        if let value = decodeCurrent(Value.self, from: data, migrations: migrations, identity: identity) { return .value(value) }
        let header: DocumentHeader
        do { header = try JSONDecoder().decode(DocumentHeader.self, from: data) } catch {
            return .bad(.corrupted(reason: "it is not a document with a format version: \(summary(of: error))"))
        }
        if let verdict = header.verdict(identity: identity, migrations: migrations) { return verdict }
        if let migrations {
            let found =
                header.valueVersion ?? migrations.versionOfUnversionedDocument(formatVersion: header.formatVersion)
            if found < migrations.version {
                switch migrations.migrate(data, from: found, formatVersion: header.formatVersion) {
                case .migrated(let value): return .migrated(value, from: found, original: data)
                case .failed(let step, let reason): return .unmigratable(from: found, step: step, reason: reason)
                case .invalid(let reason): return .bad(.corrupted(reason: reason))
                }
            }
        }
        do {
            let decoder = DocumentFormat.decoder(version: header.formatVersion)
            return .value(try decoder.decode(DocumentEnvelope<Value>.self, from: data).value)
        } catch {
            return .bad(.corrupted(reason: "its value is not a valid \(Value.self): \(summary(of: error))"))
        }
    }

    /// The value of a document of the current format, written by `identity` (or by no store
    /// named), whose value version needs no migration, decoded in one pass; `nil` for any other
    /// document, or any failure, which the caller then reads step by step (header first),
    /// reporting what is wrong as it always did.
    private static func decodeCurrent<Value: Codable & Sendable>(
        _ type: Value.Type, from data: Data, migrations: DocumentMigrations<Value>?, identity: String?
    ) -> Value? {
        guard let migrations else {
            // No expectation to set: the shared decoder, whose `userInfo` never changes; the
            // store is checked here instead (a store without migrations reads any value version).
            guard let envelope = try? DocumentFormat.sharedCurrentDecoder.decode(CurrentEnvelope<Value>.self, from: data),
                identity == nil || envelope.store == nil || envelope.store == identity
            else { return nil }
            return envelope.value
        }
        guard let key = CurrentEnvelope<Value>.expectationKey else { return nil }
        let decoder = DocumentFormat.decoder(version: DocumentFormat.current)
        decoder.userInfo[key] = CurrentEnvelopeExpectation(
            valueVersion: migrations.version,
            unversionedAs: migrations.versionOfUnversionedDocument(formatVersion: DocumentFormat.current),
            identity: identity)
        return try? decoder.decode(CurrentEnvelope<Value>.self, from: data).value
    }

    /// What makes `contents` unreadable as a document, read with at most `limit` bytes: something
    /// that is not a regular file, or too many bytes; `nil` for bytes or nothing.
    static func fileProblem(_ contents: FileContents, limit: Int64) -> DocumentProblem? {
        switch contents {
        case .missing, .bytes: return nil
        case .notARegularFile(let kind): return .unreadable(reason: "it is \(kind), not a regular file")
        case .tooLarge(let size):
            let formatter = ByteCountFormatStyle(style: .binary)
            return .unreadable(
                reason: "it holds \(formatter.format(size)), more than the \(formatter.format(limit)) a document may hold")
        }
    }

    /// A one-line description of a decoding error.
    static func summary(of error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            "invalid JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _):
            "missing “\(key.stringValue)”"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at “\(context.codingPath.map(\.stringValue).joined(separator: "."))”"
        default:
            String(describing: error)
        }
    }
}

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
