import Foundation

/// A storage reached over a network — a database several machines share — called with `await`:
/// while it waits for the server, no thread is held.
///
/// It holds the same documents as a ``StoreStorage`` (bytes under a key, one exclusive
/// transaction at a time, a way to hear other writers), and gets the same document layer on top —
/// envelope, coding, migrations with backups, bad documents set aside — through
/// ``load(_:)``, ``save(_:to:)``, ``update(_:_:)`` and ``updateIfAvailable(_:_:)``. Only the
/// waiting differs: every call that may go to the server is `async`, and a transaction's body
/// stays synchronous, a decision on the bytes that may run again.
///
/// ```swift
/// let counter = try await SharedValueStore(key: "visits", default: 0, storage: storage)
/// try await counter.update { $0 += 1 }     // decided under the row's lock, on every machine
/// print(counter.value)                      // read from memory
/// ```
///
/// A store on such a storage is a ``SharedValueStore``: it has no blocking form of a write, so
/// the compiler keeps a network wait out of code that must not wait. A ``StoreStorage`` that
/// blocks — ``FileStorage`` or ``InMemoryStorage`` — is used where an `AsyncStoreStorage` is
/// expected through ``StoreStorage/asynchronous``, which runs its calls on a thread of its own.
///
/// ## What a storage promises
/// The promises of ``StoreStorage``, and:
/// - A call that waits on the network suspends; it never blocks a thread of the cooperative
///   pool or an event loop (no `wait()`, semaphore or sleep).
/// - A failure names the backend as `description` tells it (never a password), and says
///   whether the commit happened: ``StorageError/backendUnreachable(backend:reason:)`` when
///   nothing was done, ``StorageError/commitOutcomeUnknown(backend:key:reason:)`` when the
///   connection dropped during the commit and the outcome could not be found out.
public protocol AsyncStoreStorage: Sendable, CustomStringConvertible {
    /// The bytes of the document under `key`, without waiting for a writer; `nil` when there is
    /// none. See ``StoreStorage/read(_:)``.
    func read(_ key: String) async throws(StorageError) -> StoredBytes?

    /// Runs `body` with the current bytes of the document under `key` while holding the key's
    /// exclusive lock — across every process and machine that shares the storage — then commits
    /// what `body` decided, durably, before it returns. See ``StoreStorage/transaction(_:waits:_:)``.
    ///
    /// A storage may save a round trip by deciding optimistically when `waits` is `true`: it runs
    /// `body` on the bytes it last read or committed, before it holds the key, and commits the
    /// decision only if, under the key's lock, the document still holds those bytes; otherwise it
    /// runs `body` again on the bytes the document holds. Whatever it returns was decided on the
    /// bytes the document held when the decision was committed (a decision that changes nothing
    /// included). With `waits: false`, `body` runs only while the key is held.
    ///
    /// - Parameters:
    ///   - key: A valid store key.
    ///   - waits: Whether to wait (a bounded time of the storage's choosing) when another
    ///     writer holds the lock; when `false`, returns `nil` at once without running `body`.
    ///   - body: Decides the change from the current bytes. Synchronous: it never waits. It may
    ///     run again: when the storage had to start over, or decided on bytes another writer had
    ///     replaced.
    func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>?

    /// Follows the document under `key`: `onChange` runs after another writer may have
    /// committed, until the returned watch is cancelled or released; `nil` when this storage
    /// can't follow other writers. A storage whose own commits it tells apart does not call
    /// `onChange` for them; one that lost its connection to the server calls it once it is back
    /// (changes may have been missed meanwhile).
    func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch?

    /// The bytes of the document under `key`, read after the watch called `onChange`: a store
    /// that follows other writers calls it to take in their change.
    ///
    /// A storage whose notices carry the document answers from the last one it heard, without a
    /// round trip, as long as nothing it knows of is newer — a commit of its own that its watch
    /// has not heard yet is. Each notice answers once; otherwise, and by default, it is
    /// ``read(_:)``. It never returns bytes older than the last commit this storage made of
    /// `key`, nor older than a notice it has answered from before.
    func readHeard(_ key: String) async throws(StorageError) -> StoredBytes?
}

extension AsyncStoreStorage {
    /// ``read(_:)``: a storage whose notices carry no document has nothing else to answer from.
    public func readHeard(_ key: String) async throws(StorageError) -> StoredBytes? {
        try await read(key)
    }
}
