import Foundation

/// The document layer of a storage reached with `await`: the same as ``StoreStorage``'s — the
/// envelope, coding, migrations with backups, bad documents set aside — with the waiting
/// suspended rather than blocking.
extension AsyncStoreStorage {
    /// Reads `document`, or its default value when there is none; see ``StoreStorage/load(_:)``.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad key, or an error when the
    ///   document could not be read (``StorageError/backendUnreachable(backend:reason:)`` when
    ///   the storage's backend can't be reached) or a bad document could not be set aside.
    public func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) async throws(StorageError)
        -> StorageLoad<Value>
    {
        try await load(document, heard: false)
    }

    /// ``load(_:)`` from ``readHeard(_:)`` (`heard`) or ``read(_:)``.
    func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>, heard: Bool) async throws(StorageError)
        -> StorageLoad<Value>
    {
        let key = try document.validKey()
        let read = heard ? try await readHeard(key) : try await read(key)
        guard let stored = read else {
            return StorageLoad(value: document.defaultValue, isStored: false)
        }
        let first = DocumentReading.read(stored, as: document)
        if let value = first.value, first.migration == nil, first.streamedSize == nil {
            return StorageLoad(value: value, isStored: true)
        }
        // Heard bytes that are not a current document as they are are never acted on: the
        // document is read from the storage itself, and what it holds decides.
        if heard { return try await load(document, heard: false) }
        if let failure = first.failure {
            return StorageLoad(value: document.defaultValue, isStored: false, recovery: failure)
        }
        if let value = first.value {
            // A migrated or long document is rewritten when the lock is free at once: best
            // effort, as the next write rewrites it anyway.
            return (try? await loadUnderLock(document)) ?? StorageLoad(value: value, isStored: true)
        }
        guard let problem = first.problem else { return StorageLoad(value: document.defaultValue, isStored: false) }
        try DocumentReading.checkMaySetAside(stored, problem: problem)
        return try await loadUnderLock(document) ?? StorageLoad(value: document.defaultValue, isStored: false)
    }

    /// Replaces what `document` holds with `value`; see ``StoreStorage/save(_:to:)``.
    ///
    /// - Returns: The problem with the previous document, if it was bad and had to be set aside.
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) async throws(StorageError)
        -> StorageError?
    {
        guard let saved = try await run(document, waits: true, rewrites: true, { $0 = value }) else {
            throw .gaveUpWaiting(forKey: document.key)
        }
        return saved.update.recovery
    }

    /// Re-reads `document` under its exclusive lock — held across every machine that shares the
    /// storage — lets `body` change it, and writes it back if it changed; see
    /// ``StoreStorage/update(_:_:)``. `body` is synchronous: a decision on the value, which may
    /// run again.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) async throws(StorageError) -> StorageUpdate<Value, Outcome> {
        guard let update = try await run(document, waits: true, rewrites: false, body) else {
            throw .gaveUpWaiting(forKey: document.key)
        }
        return update.update
    }

    /// Like ``update(_:_:)``, but never waits for another writer: `nil` at once when one holds
    /// the document's lock, and `body` does not run.
    @discardableResult
    public func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) async throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        try await run(document, waits: false, rewrites: false, body)?.update
    }

    /// One transaction of `document`, decided as every storage's are (see ``DocumentDecider``).
    func run<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>, waits: Bool, rewrites: Bool, _ body: (inout Value) throws(StorageError) -> Outcome
    ) async throws(StorageError) -> (update: StorageUpdate<Value, Outcome>, wasStored: Bool)? {
        let decider = DocumentDecider<Value, Outcome>(document: document, key: try document.validKey(), rewrites: rewrites)
        let commit = try await transaction(decider.key, waits: waits) { (current) throws(StorageError) in
            try decider.decide(current, body)
        }
        return decider.finish(commit)
    }

    /// The document read under its lock when the lock is free at once (`nil` otherwise),
    /// committing what the read calls for, as ``StoreStorage/load(_:)`` does.
    private func loadUnderLock<Value: Codable & Sendable>(_ document: StoreDocument<Value>) async throws(StorageError)
        -> StorageLoad<Value>?
    {
        do throws(StorageError) {
            guard let read = try await run(document, waits: false, rewrites: false, { _ in () }) else { return nil }
            return StorageLoad(value: read.update.value, isStored: read.wasStored, recovery: read.update.recovery)
        } catch {
            guard error.refusesWrites else { throw error }
            return StorageLoad(value: document.defaultValue, isStored: false, recovery: error)
        }
    }
}
