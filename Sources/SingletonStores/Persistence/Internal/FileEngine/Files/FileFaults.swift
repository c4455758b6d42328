import SingletonStoresLocking

/// Failures a test makes the next file-system calls of ``DocumentFile`` return, within one
/// task: conditions that are hard to cause for real (`EIO`, `ENOSPC`, an interrupted call…).
///
/// ```swift
/// let faults = FileFaults([.read: [EINTR], .fsync: [EIO, EIO]])
/// #expect(throws: StorageError.self) {  // the interrupted read is retried; a flush that fails twice is reported
///     try FileFaults.$current.withValue(faults) {
///         try storage.update(StoreDocument<Int>(key: "counter", default: 0)) { $0 += 1 }
///     }
/// }
/// ```
///
/// Each listed call fails once per `errno` value, in order (`0` lets one call through); then
/// calls behave normally again.
/// Outside `withValue` nothing is injected, so production code pays one task-local read per call.
final class FileFaults: Sendable {
    /// A system call that can be made to fail.
    enum Call: Hashable, Sendable {
        case openDocument, openLock, openTemporary, fstat, read, write, fsync, flock, rename
        /// Flushing the data folder after a rename.
        case syncFolder
        /// Opening a document to write it in place.
        case openForWriting
        /// Watching a data folder for file events (inotify).
        case watchFolder
        /// Listing a data folder for the temporary files of writers that were killed.
        case listFolder
    }

    /// The injections of the current task, if any.
    @TaskLocal static var current: FileFaults?

    private let pending: Locked<[Call: [Int32]]>
    private let observe: (@Sendable (Call) -> Void)?

    /// Makes each call in `failures` fail with its `errno` values, one per call, in order, and
    /// runs `observe` just before each call that can be made to fail (to act at that very
    /// point, as another thread or process could).
    init(_ failures: [Call: [Int32]], observe: (@Sendable (Call) -> Void)? = nil) {
        pending = Locked(failures)
        self.observe = observe
    }

    /// The `errno` value the next `call` must fail with, if one is injected.
    static func injected(_ call: Call) -> Int32? {
        guard let current else { return nil }
        current.observe?(call)
        return current.take(call)
    }

    /// Whether every injected failure has been used.
    var isUsedUp: Bool {
        pending.withLock { $0.values.allSatisfy(\.isEmpty) }
    }

    /// How many injections of `call` are left.
    func remaining(_ call: Call) -> Int {
        pending.withLock { $0[call]?.count ?? 0 }
    }

    private func take(_ call: Call) -> Int32? {
        pending.withLock { failures in
            guard var codes = failures[call], !codes.isEmpty else { return nil }
            let code = codes.removeFirst()
            failures[call] = codes
            return code == 0 ? nil : code
        }
    }
}
