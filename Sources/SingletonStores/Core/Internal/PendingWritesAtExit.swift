#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SingletonStoresLocking

/// The coalesced writes with a value pending, written when the process exits normally (returns
/// from `main` or calls `exit`): a command-line tool that sets a coalesced store and ends does
/// not lose its last value. A process killed, or ended by a signal, loses the values set within
/// the window, as documented.
enum PendingWritesAtExit {
    private static let writes = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    // Installs the handler once, on first use.
    private static let installed: Void = {
        atexit { PendingWritesAtExit.writeAll() }
    }()

    /// `write` is to run at exit, until ``remove(_:)``.
    static func add(_ id: ObjectIdentifier, _ write: @escaping @Sendable () -> Void) {
        _ = installed
        writes.withLock { $0[id] = write }
    }

    /// Nothing of `id` is pending any more.
    static func remove(_ id: ObjectIdentifier) {
        writes.withLock { $0[id] = nil }
    }

    /// Runs every pending write, with the lock released.
    private static func writeAll() {
        let pending = writes.withLock { writes in
            defer { writes.removeAll() }
            return Array(writes.values)
        }
        for write in pending { write() }
    }
}
