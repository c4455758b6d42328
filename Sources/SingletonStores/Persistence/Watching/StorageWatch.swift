import SingletonStoresLocking

/// A running watch of one document, returned by ``StoreStorage/watch(forKey:_:onChange:)``.
///
/// The watch lasts until ``cancel()`` is called or the last reference to it goes away; after
/// that its handler is not called again (a call already under way finishes).
public final class StorageWatch: Sendable {
    private let stop: @Sendable () -> Void
    private let describeMechanism: @Sendable () -> StorageWatchMechanism

    /// A watch that `stop` ends; `mechanism` says how it follows the document right now.
    ///
    /// Storages other than ``FileStorage`` use this to return their own watches.
    ///
    /// - Parameters:
    ///   - mechanism: How the document is followed; asked each time ``mechanism`` is read.
    ///   - stop: Ends the watch; called once, by ``cancel()`` or when the watch is released.
    public init(
        mechanism: @escaping @Sendable () -> StorageWatchMechanism,
        stop: @escaping @Sendable () -> Void
    ) {
        self.describeMechanism = mechanism
        self.stop = OnceOnly(stop).callAsFunction
    }

    /// How the document is followed right now: a watch that polls while its folder is missing
    /// switches to file events once the folder appears.
    public var mechanism: StorageWatchMechanism { describeMechanism() }

    /// Ends the watch. Calling it again does nothing.
    public func cancel() { stop() }

    deinit { stop() }
}

/// How a ``StorageWatch`` learns of new versions of its document.
public enum StorageWatchMechanism: Sendable, Hashable {
    /// The operating system reports changes to the folder (inotify on Linux).
    case fileEvents
    /// The document's identity (inode, size, modification time, and the sequence number of
    /// its current version) is compared at an interval.
    case polling(interval: Duration)
    /// The backend tells its listeners when a document changed (PostgreSQL's `LISTEN`/`NOTIFY`):
    /// nothing is polled. After the connection that listens was lost and made again, every watch
    /// is called once, since changes may have been missed meanwhile.
    case serverPush
}

/// Runs a closure at most once, from whichever thread gets there first.
private final class OnceOnly: Sendable {
    private let body: Locked<(@Sendable () -> Void)?>

    init(_ body: @escaping @Sendable () -> Void) { self.body = Locked(body) }

    func callAsFunction() {
        let taken = body.withLock { body -> (@Sendable () -> Void)? in
            defer { body = nil }
            return body
        }
        taken?()
    }
}
