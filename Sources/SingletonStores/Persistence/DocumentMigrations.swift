import Foundation

/// The versions your persisted value has had, and the steps that bring a document saved by an
/// older version of your app up to the current one.
///
/// When the shape of a stored value changes in a way `Codable` defaults can't absorb — a field
/// renamed, split or given another type — keep the old shape as a type of its own and describe
/// one step per version:
///
/// ```swift
/// struct SessionV1: Codable { var token: String; var user: String }
/// struct SessionV2: Codable { var token: String; var userID: String }
/// struct Session: Codable, Sendable, Equatable { var token = ""; var userID = ""; var expires: Date? }
///
/// let migrations = DocumentMigrations<Session>(version: 3)
///     .step(from: 1) { (old: SessionV1) in SessionV2(token: old.token, userID: old.user) }
///     .step(from: 2) { (old: SessionV2) in Session(token: old.token, userID: old.userID) }
///
/// let session = ValueStore(StoreDocument(key: "session", default: Session(), migrations: migrations))
/// ```
///
/// A document records the version of the value it holds (`"valueVersion" : 3` beside
/// `"formatVersion"`; a document without one holds version 1). A store with migrations writes the
/// current ``version`` with every document, the first one too, so a relaunch never migrates a
/// current document again.
///
/// Migrating happens under the document's lock: the old document is first copied aside as a
/// backup, then replaced by the migrated one; a step that fails leaves the document as it was,
/// and a document of a newer version is left in place, unchanged, and never written.
/// <doc:PersistenceAndRecovery> ("Migrating your own documents") tells the whole story. Every
/// storage runs them, ``InMemoryStorage`` too: the values given to its initializer are taken at
/// the current version.
public struct DocumentMigrations<Value: Codable & Sendable>: Sendable {
    /// One step: a document's envelope of version `from` in, the envelope of `from + 1` out.
    struct Step: Sendable {
        let run: @Sendable (_ envelope: Data, _ formatVersion: Int) throws(MigrationStepFailure) -> Data
    }

    /// Why a step failed.
    struct MigrationStepFailure: Error {
        let reason: String
        /// Whether the document's value, not the step, was at fault: it did not decode as the
        /// step's input.
        var isInvalidDocument = false
    }

    /// The version of the value this build stores: documents of older versions are migrated
    /// to it, and every write records it. At least 1.
    public let version: Int

    /// The steps, by the version they migrate from.
    private var steps: [Int: Step] = [:]

    /// The value version of a document that records none, from its format version; `nil`
    /// for the rule of the public API: version 1.
    private var unversioned: (@Sendable (_ formatVersion: Int) -> Int)?

    /// Whether an old document whose value is not valid — it does not decode as the step's
    /// input, or the migrated value is not a valid `Value` — is damaged (kept aside, as a
    /// current document that does not decode is) rather than a failed migration.
    private(set) var keepsInvalidDocumentsAside = false

    /// Migrations of a value whose current version is `version`; add a ``step(from:_:)`` for
    /// every older version. A version below 1 counts as 1 (no older version, nothing to
    /// migrate, and documents record version 1).
    public init(version: Int = 1) {
        self.version = max(1, version)
    }

    /// Adds the step that turns a value of version `from` into one of version `from + 1`.
    ///
    /// ```swift
    /// .step(from: 1) { (old: SessionV1) in SessionV2(token: old.token, userID: old.user) }
    /// ```
    ///
    /// `Old` is how version `from` was encoded and `New` how version `from + 1` is: the last
    /// step's `New` must encode as `Value` decodes. A step given twice for one version replaces
    /// the earlier one; one from a version at or above ``version`` is never run.
    ///
    /// - Parameters:
    ///   - from: The version the step reads.
    ///   - migrate: The step: a quick, pure transform. Throw to refuse a value that can't be
    ///     migrated; the document is then left as it is and the error reported.
    /// - Returns: These migrations with the step added.
    public func step<Old: Decodable & Sendable, New: Encodable & Sendable>(
        from: Int,
        _ migrate: @escaping @Sendable (Old) throws -> New
    ) -> DocumentMigrations {
        var copy = self
        copy.steps[from] = Step { @Sendable (data: Data, formatVersion: Int) throws(MigrationStepFailure) -> Data in
            let old: Old
            do {
                old = try DocumentFormat.decoder(version: formatVersion).decode(DocumentEnvelope<Old>.self, from: data).value
            } catch {
                throw MigrationStepFailure(
                    reason: "its value is not a valid \(Old.self): \(DocumentCoding.summary(of: error))",
                    isInvalidDocument: true)
            }
            let new: New
            do { new = try migrate(old) } catch {
                throw MigrationStepFailure(reason: "the step threw \(error)")
            }
            do {
                return try DocumentFormat.encoder().encode(
                    DocumentEnvelope(formatVersion: DocumentFormat.current, valueVersion: from + 1, value: new))
            } catch {
                throw MigrationStepFailure(reason: "its result \(New.self) could not be encoded: \(error)")
            }
        }
        return copy
    }

    /// These migrations, reading the value version of a document that records none from its
    /// format version instead of taking it as 1.
    ///
    /// For the package's own stores, whose values changed shape together with the format
    /// (version 1 of their values is what format 1 wrote, version 2 what format 2 writes), so
    /// that the documents format 2 wrote before migrations existed are not migrated again:
    ///
    /// ```swift
    /// let migrations = DocumentMigrations<[Receipt]>(version: 2)
    ///     .unversionedDocuments { formatVersion in formatVersion == 1 ? 1 : 2 }
    ///     .step(from: 1) { (old: [ReceiptVersion1]) in old.map(\.current) }
    /// ```
    package func unversionedDocuments(
        haveVersion version: @escaping @Sendable (_ formatVersion: Int) -> Int
    ) -> DocumentMigrations {
        var copy = self
        copy.unversioned = version
        return copy
    }

    /// These migrations, keeping an old document whose value is not valid aside as damaged
    /// (``StorageError/corrupted(file:reason:keptAt:)``), as the storage keeps a current document
    /// that does not decode, instead of leaving it in place and refusing every write.
    ///
    /// For the package's own stores, whose steps are checked against the documents every
    /// earlier version wrote: there, an old document that does not read is damaged, and the
    /// store goes on from its default as it always did, rather than refusing writes until a
    /// fixed step ships. A step that throws, or a missing step, still fails the migration.
    package func keepingInvalidDocumentsAside() -> DocumentMigrations {
        var copy = self
        copy.keepsInvalidDocumentsAside = true
        return copy
    }

    /// How a long document of the current version is read: front to back, never whole.
    struct StreamedReading: Sendable {
        /// Documents longer than this many bytes are streamed.
        let threshold: Int64
        /// Reads the value of a document from the stream, which stands at the value, with the
        /// decoder of the document's format.
        let read: @Sendable (_ value: inout DocumentStream, _ decoder: JSONDecoder) throws -> Value
    }

    /// How long documents are read, when they are streamed.
    private(set) var streamedReading: StreamedReading?

    /// These migrations, reading a document of the current ``version`` longer than `threshold`
    /// bytes front to back with `read`, never decoded whole: so that such a document loads
    /// without a tree of all of it in memory however long it grew (up to the 256 MiB a
    /// ``FileStorage`` reads), even past the size a test lowers the whole-document limit to.
    ///
    /// For the package's own stores whose documents earlier versions let grow without bound
    /// (the purchase ledger). `read` gets the stream standing at the document's value, and the
    /// decoder of its format for the parts it decodes; it may return a smaller value that
    /// stands for the same (a history folded into its totals). The storage writes that value
    /// back, under the document's lock and as one atomic replacement, as soon as a load finds
    /// the lock free or a write comes, when it is smaller than the document: no later launch
    /// reads the long one again. A document of an older version is migrated whole, as before.
    ///
    /// ```swift
    /// let migrations = DocumentMigrations<Ledger>(version: 2)
    ///     .readingLongDocuments(over: 64 * 1_024) { stream, decoder in try Ledger.folding(&stream, decoder) }
    /// ```
    package func readingLongDocuments(
        over threshold: Int64, _ read: @escaping @Sendable (_ value: inout DocumentStream, _ decoder: JSONDecoder) throws -> Value
    ) -> DocumentMigrations {
        var copy = self
        copy.streamedReading = StreamedReading(threshold: max(threshold, 0), read: read)
        return copy
    }

    /// The value version of a document of `formatVersion` that records none.
    func versionOfUnversionedDocument(formatVersion: Int) -> Int {
        unversioned?(formatVersion) ?? 1
    }

    /// Runs the steps from `found` up to ``version`` on the document `data` of format
    /// `formatVersion`, and decodes the result as a `Value`.
    func migrate(_ data: Data, from found: Int, formatVersion: Int) -> MigrationOutcome<Value> {
        var data = data
        var format = formatVersion
        for from in found..<version {
            guard let step = steps[from] else {
                return .failed(step: from, reason: "the app has no step that migrates version \(from)")
            }
            do throws(MigrationStepFailure) {
                data = try step.run(data, format)
            } catch {
                if error.isInvalidDocument && keepsInvalidDocumentsAside { return .invalid(reason: error.reason) }
                return .failed(step: from, reason: error.reason)
            }
            format = DocumentFormat.current
        }
        do {
            return .migrated(try DocumentFormat.decoder(version: format).decode(DocumentEnvelope<Value>.self, from: data).value)
        } catch {
            let reason = "its result is not a valid \(Value.self): \(DocumentCoding.summary(of: error))"
            if keepsInvalidDocumentsAside { return .invalid(reason: "once migrated, \(reason)") }
            return .failed(step: version - 1, reason: reason)
        }
    }
}

/// What migrating a document came to.
enum MigrationOutcome<Value> {
    /// The value at the current version.
    case migrated(Value)
    /// The step from version `step` failed, for `reason`.
    case failed(step: Int, reason: String)
    /// The document's value is not valid, for `reason`: it is damaged (only with
    /// ``DocumentMigrations/keepingInvalidDocumentsAside()``).
    case invalid(reason: String)
}
