import SingletonStoresLocking
import Synchronization

/// Named points on the paths that write more than one document, where a test can stop the
/// process — with `SIGKILL`, say — to prove that a crash at any of them loses nothing.
///
/// Only this package's own test helpers use it (it is `package`: an app can't); with no handler
/// installed, reaching a point costs one atomic load. Every document write has three points (see ``Point/willWrite(_:)``); a store
/// whose change spans documents names its own points and reports them with ``reach(_:)``.
///
/// ```swift
/// import SingletonStores
///
/// // In the helper process a crash test launches, before its first write:
/// func crashOnceTheCartIsWritten() {
///     FaultInjection.install { point in
///         if point == .didWrite("cart") { kill(getpid(), SIGKILL) }
///     }
/// }
/// ```
package enum FaultInjection {
    /// A named point.
    public struct Point: Hashable, Sendable, CustomStringConvertible {
        /// The point's name, such as `boost.item-spent` or `purchases:after-write`.
        public var name: String

        /// Creates a point.
        public init(_ name: String) {
            self.name = name
        }

        /// The name.
        public var description: String { name }

        /// A document of `key` is about to be written.
        public static func willWrite(_ key: String) -> Point { Point("\(key):before-write") }
        /// The new document of `key` is complete in its temporary file, not yet renamed over the
        /// old one.
        public static func temporaryWritten(_ key: String) -> Point { Point("\(key):temporary-written") }
        /// The document of `key` as it was before a migration was copied aside; the migrated
        /// one is written to its temporary file, not yet renamed over it.
        public static func backedUp(_ key: String) -> Point { Point("\(key):backed-up") }
        /// A document of `key` was just written.
        public static func didWrite(_ key: String) -> Point { Point("\(key):after-write") }
        /// The data folder at `path` was checked, and the folders missing in its path are about
        /// to be created in the one that exists — or, for a tool that removes the library's
        /// files, they are about to be listed and removed — through a descriptor of what was
        /// checked.
        public static func dataFolderChecked(_ path: String) -> Point { Point("data-folder-checked:\(path)") }
    }

    private static let isInstalled = Atomic<Bool>(false)
    // `Locked`, not a bare `Mutex`: the thread sanitizer sees its hand-overs.
    private static let handlers = Locked<[@Sendable (Point) -> Void]>([])

    /// Calls `handler` at every point this process reaches from now on, after the handlers
    /// installed before it: tests that run side by side in one process each install their own
    /// and act only on the points (and threads) they are about.
    public static func install(_ handler: @escaping @Sendable (Point) -> Void) {
        handlers.withLock { $0.append(handler) }
        isInstalled.store(true, ordering: .releasing)
    }

    /// Reports that the process reached `point`: calls every installed handler, if any, with no
    /// lock held.
    public static func reach(_ point: @autoclosure () -> Point) {
        guard isInstalled.load(ordering: .acquiring) else { return }
        let handlers = self.handlers.withLock { $0 }
        guard !handlers.isEmpty else { return }
        let reached = point()
        for handler in handlers { handler(reached) }
    }
}

// MARK: - Failed system calls
//
// The other test hook: where `FaultInjection` stops a transaction at a point, `FileFaults` makes
// the file engine's next system calls fail.

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
