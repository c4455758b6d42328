import Foundation
import SingletonStoresLocking

/// Reads a document's value from the bytes a storage holds: the envelope, the store that wrote
/// it, its versions, migrations and long documents read as a stream. Nothing is moved or written.
enum DocumentReading {
    /// What `stored` holds for `document`.
    ///
    /// Bytes this process committed or decoded last at the same place (see ``WrittenDocuments``)
    /// are not decoded again: their value is the one remembered, and bytes this process
    /// committed come back as the read's `encoding` too, the encoding of that value.
    static func read<Value: Codable & Sendable>(_ stored: StoredBytes, as document: StoreDocument<Value>) -> DocumentRead<
        Value
    > {
        if let simulated = stored.simulated {
            return simulated.refusesWrites
                ? DocumentRead(failure: simulated) : DocumentRead(problem: .corrupted(reason: simulated.localizedDescription))
        }
        if let damage = stored.damage { return DocumentRead(problem: damage) }
        if let seeded = stored.seeded {
            if let value = seeded as? Value { return DocumentRead(value: value) }
            return DocumentRead(
                failure: .documentOfAnotherStore(
                    file: stored.location, owner: String(describing: type(of: seeded)), store: document.identity))
        }
        let bytes = stored.bytes
        let size = Int64(bytes.count)
        let limit = DocumentFile.readLimit
        let migrations = document.migrations
        if let migrations, let streamed = migrations.streamedReading, isStreamed(stored, as: document),
            let read = readStreamed(stored, as: document, migrations: migrations, streamed: streamed)
        {
            return read
        }
        if let known = WrittenDocuments.remembered(
            bytes, of: Value.self, in: stored.location, valueVersion: migrations?.version, identity: document.identity)
        {
            var read = DocumentRead(value: known.value)
            if known.isOwnEncoding { read.encoding = bytes }
            return read
        }
        let contents: FileContents = size > limit ? .tooLarge(size: size) : .bytes(bytes)
        let decoded = DocumentCoding.decode(Value.self, from: contents, migrations: migrations, identity: document.identity)
        let read = readOf(decoded, at: stored.location, identity: document.identity, migrations: migrations)
        if let value = read.value, read.migration == nil, read.problem == nil {
            WrittenDocuments.remember(
                bytes, value: value, in: stored.location, valueVersion: migrations?.version, identity: document.identity,
                isOwnEncoding: false)
        }
        return read
    }

    /// Whether `stored` is long enough to be read as a stream, as `document` reads long ones.
    static func isStreamed<Value>(_ stored: StoredBytes, as document: StoreDocument<Value>) -> Bool {
        guard stored.damage == nil, stored.simulated == nil, stored.seeded == nil,
            let streamed = document.migrations?.streamedReading
        else { return false }
        return Int64(stored.bytes.count) > min(streamed.threshold, DocumentFile.readLimit)
    }

    /// Throws ``StorageError/keepAsideFailed(file:reason:)`` when the bad document `stored` may
    /// not be moved aside: its storage can't vouch that it is the library's own.
    static func checkMaySetAside(_ stored: StoredBytes, problem: DocumentProblem) throws(StorageError) {
        if let reason = stored.notOwnedReason {
            throw .keepAsideFailed(file: stored.location, reason: "\(problem.summary), and \(reason)")
        }
    }

    /// The report of the bad document `stored`, with `problem`, set aside at `keptAt`.
    static func report(_ problem: DocumentProblem, of stored: StoredBytes, keptAt: URL?) -> StorageError {
        stored.simulated ?? problem.report(location: stored.location, keptAt: keptAt ?? stored.location)
    }

    /// Reads the long document `stored` front to back with `streamed`: its versions first, then
    /// its value.
    ///
    /// - Returns: What the document holds; `nil` when it is to be read whole instead: when it
    ///   is of an older value version (migrations read documents whole), or when the stream
    ///   could not read it and it is small enough to be read whole (which then says what is
    ///   wrong, as it always did).
    private static func readStreamed<Value: Codable & Sendable>(
        _ stored: StoredBytes, as document: StoreDocument<Value>, migrations: DocumentMigrations<Value>,
        streamed: DocumentMigrations<Value>.StreamedReading
    ) -> DocumentRead<Value>? {
        let size = Int64(stored.bytes.count)
        let readsWhole = size <= DocumentFile.readLimit
        func damaged(_ reason: String) -> DocumentRead<Value>? {
            readsWhole ? nil : DocumentRead(problem: .corrupted(reason: reason))
        }
        var formatVersion: Int?
        var valueVersion: Int?
        var store: String?
        var storeIsInvalid = false
        do {
            var stream = DocumentStream(data: stored.bytes)
            try stream.forEachMember { key, stream in
                switch key {
                case "formatVersion":
                    formatVersion = try JSONDecoder().decode(Int.self, from: Data(stream.valueBytes(limit: 64)))
                case "valueVersion":
                    valueVersion = try JSONDecoder().decode(Int?.self, from: Data(stream.valueBytes(limit: 64)))
                case "store":
                    store = try? JSONDecoder().decode(String.self, from: Data(stream.valueBytes(limit: 64 * 1_024)))
                    storeIsInvalid = store == nil
                default: try stream.skipValue()
                }
            }
            try stream.expectEnd()
        } catch {
            return damaged("it is not a document with a format version: \(DocumentCoding.summary(of: error))")
        }
        guard let formatVersion else { return damaged("it is not a document with a format version: missing “formatVersion”") }
        let header = DocumentHeader(
            formatVersion: formatVersion, valueVersion: valueVersion, store: store, storeIsInvalid: storeIsInvalid)
        if let verdict = header.verdict(identity: document.identity, migrations: migrations) {
            return readOf(verdict, at: stored.location, identity: document.identity, migrations: migrations)
        }
        let found = valueVersion ?? migrations.versionOfUnversionedDocument(formatVersion: formatVersion)
        guard found == migrations.version else { return nil }
        let decoder = DocumentFormat.decoder(version: formatVersion)
        var value: Value?
        do {
            var stream = DocumentStream(data: stored.bytes)
            try stream.forEachMember { key, stream in
                if key == "value" { value = try streamed.read(&stream, decoder) } else { try stream.skipValue() }
            }
        } catch {
            return damaged("its value is not a valid \(Value.self): \(DocumentCoding.summary(of: error))")
        }
        guard let value else { return damaged("its value is not a valid \(Value.self): missing “value”") }
        return DocumentRead(value: value, streamedSize: size)
    }

    /// The read that `decoded`, the contents of the document at `location`, make.
    private static func readOf<Value>(
        _ decoded: DocumentContents<Value>, at location: URL, identity: String, migrations: DocumentMigrations<Value>?
    ) -> DocumentRead<Value> {
        switch decoded {
        case .missing: DocumentRead()
        case .value(let value): DocumentRead(value: value)
        case .bad(let problem): DocumentRead(problem: problem)
        case .migrated(let value, let from, let original):
            DocumentRead(
                value: value, migration: DocumentBackup(original: original, from: from, to: migrations?.version ?? from))
        case .unmigratable(let from, let step, let reason):
            DocumentRead(failure: .migrationFailed(file: location, from: from, failedStep: step, reason: reason))
        case .newerFormat(let found):
            DocumentRead(failure: .newerFormatLeftInPlace(file: location, found: found, supported: DocumentFormat.current))
        case .newerValueVersion(let found, let supported):
            DocumentRead(failure: .newerValueVersionLeftInPlace(file: location, found: found, supported: supported))
        case .otherStore(let owner):
            DocumentRead(failure: .documentOfAnotherStore(file: location, owner: owner, store: identity))
        }
    }
}

/// A document as read, with any migration it went through in memory.
struct DocumentRead<Value> {
    /// The value: stored, or migrated from an older version.
    var value: Value?
    /// What is wrong with the document, when it must be kept aside.
    var problem: DocumentProblem?
    /// The migration the value went through, when the document is of an older version: the
    /// document as it was, to back up before it is replaced.
    var migration: DocumentBackup?
    /// Why the document can't be used or migrated: it must be left as it is.
    var failure: StorageError?
    /// The document's bytes, when they are known to be exactly what encoding `value` gives
    /// (this process committed them).
    var encoding: Data?
    /// The size of the long document `value` was read from as a stream (see
    /// ``DocumentMigrations/readingLongDocuments(over:_:)``): the value is written back when
    /// its encoding is smaller.
    var streamedSize: Int64?
}

// MARK: - What need not be read again
//
// Bytes this process saved or decoded, with their value, so that reading them again skips the
// decoder.

/// The last document this process committed to each place, or decoded from it, byte for byte
/// with its value, so that a transaction or a read that finds those very bytes again needs not
/// decode them a second time — nor, when this process committed them, encode its value again
/// to learn whether its change changed anything.
///
/// The common write is a store updating the document it wrote last: the bytes under the lock
/// are its own, and the body gets the value it committed, with no decoding. Bytes another
/// process or a person wrote differ, and are decoded (and remembered) as before.
///
/// What this means for a value: the value a body or a read gets for bytes this process
/// committed is the value it committed, not the one decoding those bytes would give. The two
/// are equal for a value whose `Codable` conformance writes back what it read — as every
/// stored value's must for the document not to change when nothing did. For one whose coding
/// does not round-trip (a property left out of `encode(to:)`, a rounding date), the value of
/// this process's own commit stays as it was in memory, and other processes see the decoded
/// one. Values of a class type are never remembered (a body could change the remembered
/// instance itself): they are decoded every time.
///
/// It can never lose a write: a transaction that uses remembered bytes skips its write only
/// when its new document is byte for byte the one on disk already.
///
/// Only documents of up to ``largestRemembered`` bytes are kept, and only the last of each place.
package enum WrittenDocuments {
    /// The largest document remembered: 64 KiB. Larger ones are decoded and encoded every time.
    static let largestRemembered = 64 * 1024

    /// The most places remembered at once; past it, the memo starts again empty.
    static let mostFiles = 256

    private struct Entry: Sendable {
        let bytes: Data
        let value: any Sendable
        let type: ObjectIdentifier
        let valueVersion: Int?
        let identity: String
        /// Whether `bytes` are what encoding `value` gives (this process committed them).
        let isOwnEncoding: Bool
    }

    /// By place, as the storage names it. The place only chooses the slot: a value is taken
    /// from the memo only for the very bytes it was remembered with, so two spellings of one
    /// place cost a decode, never a wrong value. (A URL is hashed as it is spelled, which costs
    /// far less than working out its path on every read.)
    private static let entries = Locked<[URL: Entry]>([:])

    /// The value remembered for `bytes`, the current contents of `file`, as a `Value` at
    /// `valueVersion` of the store `identity`, and whether this process committed them (the
    /// bytes are then the encoding of that value); `nil` when they are not the bytes last
    /// remembered there for that type, version and store.
    static func remembered<Value: Sendable>(
        _ bytes: Data, of type: Value.Type, in file: URL, valueVersion: Int?, identity: String
    ) -> (value: Value, isOwnEncoding: Bool)? {
        guard bytes.count <= largestRemembered, !(Value.self is AnyClass) else { return nil }
        let entry = entries.withLock { $0[file] }
        guard let entry, entry.type == ObjectIdentifier(Value.self), entry.valueVersion == valueVersion,
            entry.identity == identity, entry.bytes == bytes, let value = entry.value as? Value
        else { return nil }
        return (value, entry.isOwnEncoding)
    }

    /// Remembers that `file` holds `bytes`, whose value is `value` (a `Value` at `valueVersion`
    /// of the store `identity`): committed by this process when `isOwnEncoding` (the bytes are
    /// then `value`'s encoding), else decoded from them.
    static func remember<Value: Sendable>(
        _ bytes: Data, value: Value, in file: URL, valueVersion: Int?, identity: String, isOwnEncoding: Bool
    ) {
        guard bytes.count <= largestRemembered, !(Value.self is AnyClass) else {
            forget(file)
            return
        }
        let entry = Entry(
            bytes: bytes, value: value, type: ObjectIdentifier(Value.self), valueVersion: valueVersion,
            identity: identity, isOwnEncoding: isOwnEncoding)
        entries.withLock { entries in
            if entries.count >= mostFiles, entries[file] == nil { entries.removeAll() }
            entries[file] = entry
        }
    }

    /// Forgets every document remembered in `folder` and below: for a test that plays a new
    /// launch in the same process, which remembers nothing.
    package static func forget(under folder: URL) {
        var prefix = folder.filePath
        if !prefix.hasSuffix("/") { prefix += "/" }
        entries.withLock { entries in entries = entries.filter { !$0.key.filePath.hasPrefix(prefix) } }
    }

    /// Forgets what was written to `file`.
    static func forget(_ file: URL) {
        _ = entries.withLock { $0.removeValue(forKey: file) }
    }
}
