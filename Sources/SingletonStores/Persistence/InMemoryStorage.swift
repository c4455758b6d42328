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
/// It keeps bytes, as every storage does, so a store's documents go through the same document
/// layer as on disk: the same envelope, coding, migrations and rule of which store a document
/// belongs to (a document another store saved is left as it is, reported as
/// ``StorageError/documentOfAnotherStore(file:owner:store:)``, and every write of it throws that
/// error). The values given to ``init(_:)`` are taken as they are, at the current version of
/// their document, and belong to the store of their type. A transaction holds the key's lock (the
/// in-memory stand-in for its lock file) while its body runs, so the same rules hold for the
/// body.
///
/// It does not watch: two stores on one `InMemoryStorage` see each other's writes only when
/// they write or reload themselves. Test following across processes with a ``FileStorage`` in a
/// temporary folder.
public final class InMemoryStorage: StoreStorage {
    /// The in-memory stand-in for a key's lock file.
    private final class KeyLock: Sendable {
        private let lock = Locked(())

        /// Runs `body` holding the lock: after waiting for it when `waits` is `true`; else
        /// only if it is free now (`nil` when it is not).
        func withLock<Result, Failure: Error>(
            waits: Bool, _ body: (inout Void) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result? {
            waits ? try lock.withLock(body) : try lock.withLockIfAvailable(body)
        }
    }

    /// What a key holds: the bytes a transaction committed, or a value given to `init`.
    private enum Entry: Sendable {
        case bytes(Data)
        case seeded(any Sendable)
    }

    /// The stored documents and the problems waiting to be played.
    private struct State {
        var entries: [String: Entry]
        var pendingRecoveries: [String: StorageError] = [:]
        var writeFailures: [String: StorageError] = [:]
    }

    private let state: Locked<State>

    /// One lock per key, held while a transaction's body runs.
    private let keyLocks = Locked([String: KeyLock]())

    /// Creates a storage holding `values`, keyed by store name: each is the document of the
    /// store of its type, at its current version.
    public init(_ values: [String: any Sendable] = [:]) {
        state = Locked(State(entries: values.mapValues { .seeded($0) }))
    }

    /// The pretend file of the store named `key`, for building ``StorageError`` values.
    public static func location(forKey key: String) -> URL {
        URL(filePath: "/in-memory/\(key).json", directoryHint: .notDirectory)
    }

    /// The value stored under `key`, if there is one of type `Value`.
    public func value<Value: Codable & Sendable>(_ type: Value.Type, forKey key: String) -> Value? {
        switch state.withLock({ $0.entries[key] }) {
        case .seeded(let value)?: return value as? Value
        case .bytes(let bytes)?:
            guard case .value(let value) = DocumentCoding.decode(Value.self, from: .bytes(bytes)) else { return nil }
            return value
        case nil: return nil
        }
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

    /// The bytes stored under `key`; see ``StoreStorage/read(_:)``.
    public func read(_ key: String) throws(StorageError) -> StoredBytes? {
        let key = try StorageKey.validated(key)
        return state.withLock { Self.current(key, in: $0) }
    }

    /// Runs `body` on the bytes stored under `key` while holding the key's lock, and keeps what
    /// it decided; see ``StoreStorage/transaction(_:waits:_:)``. Waits only for another
    /// transaction of the same key in this process (there is no other process), and not at all
    /// when `waits` is `false`: then it returns `nil` while the key is held.
    public func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        let key = try StorageKey.validated(key)
        // The body runs under the key's own lock, as it runs under the key's file lock in
        // FileStorage, so it may run a transaction of another key (in a fixed order).
        return try lock(forKey: key).withLock(waits: waits) { (_: inout Void) throws(StorageError) -> DocumentCommit<Result> in
            let current: Swift.Result<StoredBytes?, StorageError> = state.withLock { state in
                if let failure = state.writeFailures[key] { return .failure(failure) }
                return .success(Self.current(key, in: state))
            }
            let decision = try body(try current.get())
            let change = decision.change
            let kept: URL? = state.withLock { state in
                var kept: URL?
                if change.settingAside != nil {
                    kept = state.pendingRecoveries.removeValue(forKey: key)?.keptFile ?? Self.location(forKey: "\(key)~kept")
                    state.entries[key] = nil
                }
                if let bytes = change.bytes { state.entries[key] = .bytes(bytes) }
                return kept
            }
            return DocumentCommit(decision.result, keptAt: kept)
        }
    }

    /// Watches nothing: two stores on one `InMemoryStorage` do not follow each other.
    public func watch(
        forKey key: String,
        _ watching: StorageWatching,
        onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        _ = try StorageKey.validated(key)
        return nil
    }

    /// The lock that serialises transactions of `key`, made on first use.
    private func lock(forKey key: String) -> KeyLock {
        keyLocks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = KeyLock()
            locks[key] = lock
            return lock
        }
    }

    /// What `key` holds in `state`, with a simulated problem, if one is waiting.
    private static func current(_ key: String, in state: State) -> StoredBytes? {
        let location = location(forKey: key)
        if let problem = state.pendingRecoveries[key] {
            var stored = StoredBytes(Data(), location: location)
            stored.simulated = problem
            return stored
        }
        switch state.entries[key] {
        case .bytes(let bytes)?: return StoredBytes(bytes, location: location)
        case .seeded(let value)?:
            var stored = StoredBytes(Data(), location: location)
            stored.seeded = value
            return stored
        case nil: return nil
        }
    }
}
