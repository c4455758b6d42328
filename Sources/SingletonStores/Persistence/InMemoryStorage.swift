import Foundation
import SingletonStoresLocking

/// A ``StoreStorage`` that keeps values in memory, for tests and previews.
///
/// Seed it with the values a test needs, hand it to the store under test, and check what the
/// store saved. It can also play the bad days of a real disk:
///
/// ```swift
/// @Test func profileStartsFromDefaultsAfterADamagedFile() throws {
///     let storage = InMemoryStorage(["profile": Profile(name: "Aki")])
///     storage.simulateRecovery(
///         .corrupted(file: InMemoryStorage.location(forKey: "profile"),
///                    keptAt: InMemoryStorage.location(forKey: "profile~corrupt"),
///                    reason: "truncated"),
///         forKey: "profile"
///     )
///     let store = ProfileStore(storage: storage)
///     #expect(store.profile == Profile())                 // started from defaults
///     #expect(store.loadProblem != nil)                   // and said so
///
///     try store.rename(to: "Mei")
///     #expect(storage.value(Profile.self, forKey: "profile")?.name == "Mei")
/// }
/// ```
///
/// It follows the same contract as ``FileStorage``: keys are validated the same way, values
/// are kept as given (encoded only to tell whether an update changed them, so a value
/// that can't be encoded fails here too), a stored value of another type — or one saved by a
/// store of another ``StoreDocument/identity`` — is another store's document (left as it is,
/// reported as ``StorageError/documentOfAnotherStore(file:owner:store:)``, and every write of it
/// throws that error), and ``update(_:_:)`` runs its body exactly once while holding the
/// key's lock (the in-memory stand-in for its lock file), so the same rules hold for the body.
///
/// It holds typed values, so it has nothing to migrate: a document's ``StoreDocument/migrations``
/// are ignored.
///
/// It does not watch: two stores on one `InMemoryStorage` see each other's writes only when
/// they write or reload themselves. Test following across processes with a ``FileStorage`` in a
/// temporary folder.
public final class InMemoryStorage: StoreStorage {
    /// The in-memory stand-in for a key's lock file.
    private final class KeyLock: Sendable {
        private let lock = Locked(())

        func withLock<Result, Failure: Error>(
            _ body: (inout Void) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            try lock.withLock(body)
        }
    }

    /// The stored values and the problems waiting to be played.
    private struct State {
        var values: [String: any Sendable]
        /// The identity of the store that saved each value; none for the values given to `init`.
        var identities: [String: String] = [:]
        var pendingRecoveries: [String: StorageError] = [:]
        var writeFailures: [String: StorageError] = [:]
    }

    private let state: Locked<State>

    /// One lock per key, held while an update's body runs.
    private let keyLocks = Locked([String: KeyLock]())

    /// Creates a storage holding `values`, keyed by store name.
    public init(_ values: [String: any Sendable] = [:]) {
        state = Locked(State(values: values))
    }

    /// The pretend file of the store named `key`, for building ``StorageError`` values.
    public static func location(forKey key: String) -> URL {
        URL(filePath: "/in-memory/\(key).json", directoryHint: .notDirectory)
    }

    /// The value stored under `key`, if there is one of type `Value`.
    public func value<Value: Sendable>(_ type: Value.Type, forKey key: String) -> Value? {
        state.withLock { $0.values[key] as? Value }
    }

    /// Makes the next `load`, `save` or `update` of `key` behave as if its document was bad:
    /// the stored value is dropped, the call starts from the default, and `problem` is
    /// reported as its recovery. Pass `nil` to cancel.
    ///
    /// A problem of a document that ``FileStorage`` leaves in place and never writes — one a
    /// newer version of the app wrote (``StorageError/newerFormatLeftInPlace(file:found:supported:)``,
    /// ``StorageError/newerValueVersionLeftInPlace(file:found:supported:)``), another store's
    /// (``StorageError/documentOfAnotherStore(file:owner:store:)``), or one whose migration failed —
    /// plays the same way until it is cancelled: the stored value stays, every load starts from
    /// the default and reports `problem`, and every `save` and `update` throws it.
    public func simulateRecovery(_ problem: StorageError?, forKey key: String) {
        state.withLock { $0.pendingRecoveries[key] = problem }
    }

    /// Makes every `save` and `update` of `key` throw `error` without changing anything,
    /// until called again with `nil`.
    public func simulateWriteFailure(_ error: StorageError?, forKey key: String) {
        state.withLock { $0.writeFailures[key] = error }
    }

    /// Returns the value `document` holds, or its default value; plays a simulated recovery.
    public func load<Value: Codable & Sendable>(_ document: StoreDocument<Value>) throws(StorageError)
        -> StorageLoad<Value>
    {
        let key = try document.validKey()
        let (stored, recovery) = state.withLock { Self.takeCurrent(document, key: key, from: &$0) }
        if let stored { return StorageLoad(value: stored, isStored: true) }
        return StorageLoad(value: document.defaultValue, isStored: false, recovery: recovery)
    }

    /// Stores `value` in `document`; returns a simulated problem with the previous value, if any.
    @discardableResult
    public func save<Value: Codable & Sendable>(_ value: Value, to document: StoreDocument<Value>) throws(StorageError)
        -> StorageError?
    {
        let key = try document.validKey()
        _ = try DocumentCoding.encode(value, key: key)
        let result: Result<StorageError?, StorageError> = state.withLock { state in
            if let failure = state.writeFailures[key] { return .failure(failure) }
            let (_, recovery) = Self.takeCurrent(document, key: key, from: &state)
            if let recovery, recovery.refusesWrites { return .failure(recovery) }
            state.values[key] = value
            state.identities[key] = document.identity
            return .success(recovery)
        }
        return try result.get()
    }

    /// Applies `body` to the value `document` holds (or its default value) while holding the
    /// key's lock.
    @discardableResult
    public func update<Value: Codable & Sendable, Outcome>(
        _ document: StoreDocument<Value>,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        let key = try document.validKey()
        // The body runs under the key's own lock, as it runs under the key's file lock in
        // FileStorage, so it may update another key (in a fixed order) without deadlock.
        return try lock(forKey: key).withLock { (_: inout Void) throws(StorageError) -> StorageUpdate<Value, Outcome> in
            let current: Result<(Value?, StorageError?), StorageError> = state.withLock { state in
                if let failure = state.writeFailures[key] { return .failure(failure) }
                let current = Self.takeCurrent(document, key: key, from: &state)
                if let refusal = current.1, refusal.refusesWrites { return .failure(refusal) }
                return .success(current)
            }
            let (stored, recovery) = try current.get()
            var value = stored ?? document.defaultValue
            // Compare encodings, as FileStorage does, so `didWrite` means the same here.
            let before = try DocumentCoding.encode(value, key: key)
            let outcome = try body(&value)
            let after = try DocumentCoding.encode(value, key: key)
            let changed = after != before
            if changed {
                let committed = value
                state.withLock { state in
                    state.values[key] = committed
                    state.identities[key] = document.identity
                }
            }
            return StorageUpdate(value: value, outcome: outcome, didWrite: changed, recovery: recovery)
        }
    }

    /// The lock that serialises updates of `key`, made on first use.
    private func lock(forKey key: String) -> KeyLock {
        keyLocks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = KeyLock()
            locks[key] = lock
            return lock
        }
    }

    /// The value `document` holds under `key`, or the problem with it: a simulated one, or a
    /// value of another store (another type, or saved by another identity), which stays.
    private static func takeCurrent<Value>(
        _ document: StoreDocument<Value>, key: String, from state: inout State
    ) -> (Value?, StorageError?) {
        if let problem = state.pendingRecoveries[key], problem.refusesWrites { return (nil, problem) }
        if let problem = state.pendingRecoveries.removeValue(forKey: key) {
            state.values[key] = nil
            state.identities[key] = nil
            return (nil, problem)
        }
        guard let stored = state.values[key] else { return (nil, nil) }
        let owner = state.identities[key]
        if let value = stored as? Value, owner == nil || owner == document.identity { return (value, nil) }
        let problem = StorageError.documentOfAnotherStore(
            file: location(forKey: key), owner: owner ?? String(describing: Swift.type(of: stored)), store: document.identity)
        return (nil, problem)
    }
}
