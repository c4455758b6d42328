import Foundation

/// The on-disk shape of a store's document: `{"formatVersion": 2, "value": {…}}`, and
/// `"valueVersion"` when the store has ``DocumentMigrations``.
struct DocumentEnvelope<Value> {
    /// The version of this envelope format the document was written with.
    var formatVersion: Int
    /// The version of the store's value, for a store with migrations; absent means 1.
    var valueVersion: Int?
    /// The store's value.
    var value: Value

    /// An envelope of the current format.
    init(formatVersion: Int, valueVersion: Int? = nil, value: Value) {
        self.formatVersion = formatVersion
        self.valueVersion = valueVersion
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case formatVersion, valueVersion, value
    }
}

extension DocumentEnvelope: Encodable where Value: Encodable {
    /// Encodes the envelope; `valueVersion` only when there is one, so a store without
    /// migrations writes the same bytes as before they existed.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encodeIfPresent(valueVersion, forKey: .valueVersion)
        try container.encode(value, forKey: .value)
    }
}

extension DocumentEnvelope: Decodable where Value: Decodable {
    /// Decodes the envelope.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        valueVersion = try container.decodeIfPresent(Int.self, forKey: .valueVersion)
        value = try container.decode(Value.self, forKey: .value)
    }
}

/// Just the versions of a document, read before the value so that a newer document is never
/// decoded with an older schema.
struct DocumentHeader: Decodable {
    /// The version of the envelope format the document was written with.
    var formatVersion: Int
    /// The version of the value, when the document records one.
    var valueVersion: Int?
}

/// A document decoded in one pass: only one of the current format whose value version is the
/// one expected (``CurrentEnvelopeExpectation``, in the decoder's `userInfo`; any when there
/// is none). Any other throws, and the document is read step by step instead.
private struct CurrentEnvelope<Value: Decodable>: Decodable {
    var value: Value

    /// Where the decoder's `userInfo` holds the expected value version.
    static var expectationKey: CodingUserInfoKey? {
        CodingUserInfoKey(rawValue: "SingletonStores.currentEnvelopeExpectation")
    }

    /// Not a document this one-pass read decodes.
    struct NotCurrent: Error {}

    private enum CodingKeys: String, CodingKey {
        case formatVersion, valueVersion, value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .formatVersion) == DocumentFormat.current else { throw NotCurrent() }
        let valueVersion = try container.decodeIfPresent(Int.self, forKey: .valueVersion)
        if let key = Self.expectationKey, let expected = decoder.userInfo[key] as? CurrentEnvelopeExpectation,
            expected.valueVersion < 1 || (valueVersion ?? expected.unversionedAs) != expected.valueVersion
        {
            throw NotCurrent()
        }
        value = try container.decode(Value.self, forKey: .value)
    }
}

/// The value version a one-pass read expects: the migrations' current one, and what a
/// document without one counts as.
private struct CurrentEnvelopeExpectation: Sendable {
    var valueVersion: Int
    var unversionedAs: Int
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
    /// A document that must be moved aside, and why.
    case bad(DocumentProblem)
}

/// Why a document can't be used.
enum DocumentProblem {
    /// It is not a regular file (a folder, a pipe, a device…), so it can't be read as one.
    case unreadable(reason: String)
    /// It is not a valid document for the expected type.
    case corrupted(reason: String)
    /// It was written in a newer format than this build reads.
    case newerFormat(found: Int)
    /// Its value is of a newer version than the store's migrations know.
    case newerValueVersion(found: Int, supported: Int)

    /// What is wrong, as a clause: "it is damaged (…)".
    var summary: String {
        switch self {
        case .unreadable(let reason): "it can't be read (\(reason))"
        case .corrupted(let reason): "it is damaged (\(reason))"
        case .newerFormat(let found): "it was written by a newer version of the app (format \(found))"
        case .newerValueVersion(let found, _): "it was written by a newer version of the app (value version \(found))"
        }
    }

    /// The tag in the name of the file the document is kept as.
    var tag: String {
        switch self {
        case .unreadable: "unreadable"
        case .corrupted: "corrupt"
        case .newerFormat: "newer-format"
        case .newerValueVersion: "newer-version"
        }
    }
}

/// Encoding and decoding of document envelopes.
enum DocumentCoding {
    /// Encodes `value` in an envelope of the current format version, with stable, readable
    /// formatting (sorted keys, so that equal values give equal bytes).
    /// `valueVersion` is recorded when given (a store with migrations).
    static func encode<Value: Codable>(_ value: Value, key: String, valueVersion: Int? = nil) throws(StorageError) -> Data {
        do {
            return try DocumentFormat.sharedEncoder.encode(
                DocumentEnvelope(formatVersion: DocumentFormat.current, valueVersion: valueVersion, value: value))
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
    /// header names. A document of a version newer than ``DocumentFormat/current`` is not
    /// decoded. With `migrations`, a document of an older value version is migrated in memory,
    /// and one of a newer value version is bad.
    static func decode<Value: Codable & Sendable>(
        _ type: Value.Type, from contents: FileContents, migrations: DocumentMigrations<Value>? = nil
    ) -> DocumentContents<Value> {
        let data: Data
        switch contents {
        case .missing: return .missing
        case .notARegularFile(let kind): return .bad(.unreadable(reason: "it is \(kind), not a regular file"))
        case .tooLarge(let size):
            let formatter = ByteCountFormatStyle(style: .binary)
            return .bad(
                .unreadable(
                    reason: "it holds \(formatter.format(size)), more than the \(formatter.format(DocumentFile.readLimit)) "
                        + "a document may hold"))
        case .bytes(let bytes): data = bytes
        }
        if data.isEmpty { return .bad(.corrupted(reason: "the file is empty")) }
        if let value = decodeCurrent(Value.self, from: data, migrations: migrations) { return .value(value) }
        let header: DocumentHeader
        do { header = try JSONDecoder().decode(DocumentHeader.self, from: data) } catch {
            return .bad(.corrupted(reason: "it is not a document with a format version: \(summary(of: error))"))
        }
        if header.formatVersion > DocumentFormat.current { return .bad(.newerFormat(found: header.formatVersion)) }
        if header.formatVersion < DocumentFormat.oldestReadable {
            return .bad(.corrupted(reason: "it has an unknown format version \(header.formatVersion)"))
        }
        if let migrations {
            let found =
                header.valueVersion ?? migrations.versionOfUnversionedDocument(formatVersion: header.formatVersion)
            if found > migrations.version {
                return .bad(.newerValueVersion(found: found, supported: migrations.version))
            }
            if found < 1 { return .bad(.corrupted(reason: "it has an unknown value version \(found)")) }
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

    /// The value of a document of the current format whose value version needs no migration,
    /// decoded in one pass; `nil` for any other document, or any failure, which the caller
    /// then reads step by step (header first), reporting what is wrong as it always did.
    private static func decodeCurrent<Value: Codable & Sendable>(
        _ type: Value.Type, from data: Data, migrations: DocumentMigrations<Value>?
    ) -> Value? {
        guard let migrations else {
            // No expectation to set: the shared decoder, whose `userInfo` never changes.
            return try? DocumentFormat.sharedCurrentDecoder.decode(CurrentEnvelope<Value>.self, from: data).value
        }
        guard let key = CurrentEnvelope<Value>.expectationKey else { return nil }
        let decoder = DocumentFormat.decoder(version: DocumentFormat.current)
        decoder.userInfo[key] = CurrentEnvelopeExpectation(
            valueVersion: migrations.version,
            unversionedAs: migrations.versionOfUnversionedDocument(formatVersion: DocumentFormat.current))
        return try? decoder.decode(CurrentEnvelope<Value>.self, from: data).value
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
