import Dispatch
import Foundation

extension StoreStorage {
    /// This storage where an ``AsyncStoreStorage`` is expected: its calls — which may block, on a
    /// file lock another process holds, say — run on a thread of their own while the caller's
    /// task is suspended, so no thread of the cooperative pool waits.
    ///
    /// ```swift
    /// let counter = try await SharedValueStore(
    ///     key: "visits", default: 0, storage: InMemoryStorage().asynchronous)
    /// ```
    ///
    /// For tests and previews of code written for a network storage, and for a service that
    /// keeps some of its stores in files.
    public var asynchronous: AsynchronousStorage<Self> { AsynchronousStorage(self) }
}

/// A blocking ``StoreStorage`` used as an ``AsyncStoreStorage``: see
/// ``StoreStorage/asynchronous``.
public struct AsynchronousStorage<Base: StoreStorage>: AsyncStoreStorage {
    /// The storage whose calls are run.
    public let base: Base

    /// How the document follows other writers: file events or a poll by default.
    public let watching: StorageWatching

    /// `base`, called with `await`; its watches follow other writers as `watching` says.
    public init(_ base: Base, watching: StorageWatching = .automatic) {
        self.base = base
        self.watching = watching
    }

    /// The base storage's own description when it has one, else its type's name: never a dump of
    /// its stored properties, which could hold a password.
    public var description: String {
        (base as? any CustomStringConvertible)?.description ?? String(describing: Base.self)
    }

    /// See ``AsyncStoreStorage/read(_:)``.
    public func read(_ key: String) async throws(StorageError) -> StoredBytes? {
        let base = base
        return try await Self.offloaded { () throws(StorageError) in try base.read(key) }
    }

    /// See ``AsyncStoreStorage/transaction(_:waits:_:)``.
    public func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        let base = base
        // The body runs on the other thread while this task waits for it, and never after:
        // `offloaded` returns only once the work is done.
        return try await withoutActuallyEscaping(body) { body async throws(StorageError) in
            try await Self.offloaded { () throws(StorageError) in try base.transaction(key, waits: waits, body) }
        }
    }

    /// See ``AsyncStoreStorage/watch(forKey:onChange:)``.
    public func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError)
        -> StorageWatch?
    {
        let (base, watching) = (base, watching)
        return try await Self.offloaded { () throws(StorageError) in
            try base.watch(forKey: key, watching, onChange: onChange)
        }
    }

    /// The queue blocking calls run on: not the cooperative pool's threads.
    private static var queue: DispatchQueue { offloadQueue }

    /// Runs `work` on ``queue`` and suspends until it is done.
    private static func offloaded<T>(_ work: () throws(StorageError) -> T) async throws(StorageError) -> T {
        let outcome: Swift.Result<T, StorageError> = await withoutActuallyEscaping(work) { work in
            let job = Job(work)
            return await withCheckedContinuation {
                (continuation: CheckedContinuation<UncheckedTransfer<Swift.Result<T, StorageError>>, Never>) in
                queue.async {
                    // The work is let go of before the waiting task resumes: it must not outlive
                    // the call that lent it.
                    let result = job.run()
                    continuation.resume(returning: UncheckedTransfer(result))
                }
            }.value
        }
        return try outcome.get()
    }
}

/// Work lent to another thread, run once and let go of.
private final class Job<T>: @unchecked Sendable {
    private var work: (() throws(StorageError) -> T)?

    init(_ work: @escaping () throws(StorageError) -> T) { self.work = work }

    /// Runs the work and drops it; only the thread it was handed to calls this, once.
    func run() -> Swift.Result<T, StorageError> {
        guard let work else { return .failure(.writeFailed(file: URL(filePath: "/"), reason: "the work ran twice")) }
        self.work = nil
        do throws(StorageError) { return .success(try work()) } catch { return .failure(error) }
    }
}

/// The queue every ``AsynchronousStorage`` runs its blocking calls on.
private let offloadQueue = DispatchQueue(label: "SingletonStores.AsynchronousStorage", attributes: .concurrent)

/// A value handed to another thread and back while its owner waits, and used by one thread at a
/// time: a blocking storage's work and its result.
private struct UncheckedTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
