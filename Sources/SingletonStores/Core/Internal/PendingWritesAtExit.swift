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
///
/// Each write waits for another process's lock up to its storage's lock timeout. A value that
/// could not be written is reported as lost (``StoreIssue/pendingValueLost(key:_:)``), and the
/// process then ends with ``StoreWritePolicy/valuesLostExitStatus`` instead of its own status,
/// so that a script running it sees that something was not saved.
enum PendingWritesAtExit {
    /// One pending write: it returns whether the value is on disk (or nothing was pending).
    typealias Write = @Sendable () -> Bool

    private static let writes = Locked<[ObjectIdentifier: Write]>([:])

    // Installs the handler once, on first use.
    private static let installed: Void = {
        atexit { PendingWritesAtExit.exitHandler() }
    }()

    /// `write` is to run at exit, until ``remove(_:)``.
    static func add(_ id: ObjectIdentifier, _ write: @escaping Write) {
        _ = installed
        writes.withLock { $0[id] = write }
    }

    /// Nothing of `id` is pending any more.
    static func remove(_ id: ObjectIdentifier) {
        writes.withLock { $0[id] = nil }
    }

    /// Runs every pending write, with the lock released; how many values could not be written.
    static func writeAll() -> Int {
        let pending = writes.withLock { writes in
            defer { writes.removeAll() }
            return Array(writes.values)
        }
        return pending.reduce(0) { lost, write in write() ? lost : lost + 1 }
    }

    /// At exit: writes every pending value; when one was lost, flushes the standard streams and
    /// ends the process with ``StoreWritePolicy/valuesLostExitStatus``.
    private static func exitHandler() {
        guard writeAll() > 0 else { return }
        fflush(nil)
        _exit(StoreWritePolicy.valuesLostExitStatus)
    }
}
