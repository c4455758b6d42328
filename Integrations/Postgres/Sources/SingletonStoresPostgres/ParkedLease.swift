import PostgresNIO
import Synchronization

/// The connection of a storage's last call, kept leased from the pool between calls, so that
/// the next call takes it at once: no task to lease it, no hop between threads, no work in the
/// pool's bookkeeping.
///
/// At most one is kept. It goes back to the pool
/// - when a call that used it fails (its session may hold what a failed call left: the caller
///   closes a connection it lost, and the pool drops a closed one);
/// - when a call is waiting for the pool as it is put back (a pool of two connections, one of
///   them listening, must not be kept from that call);
/// - when the storage stops (``close()``), so that the pool can shut down.
final class ParkedLease: Sendable {
    /// A leased connection, and what gives it back to the pool.
    struct Lease: Sendable {
        let connection: PostgresConnection
        let done: AsyncStream<Void>.Continuation

        /// Gives the connection back to the pool.
        func release() { done.finish() }
    }

    private struct State {
        var parked: Lease?
        /// Calls waiting for the pool.
        var waiting = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// The kept lease, taken by the caller; or `nil`, and the caller counts as waiting for the
    /// pool until it calls ``stopWaiting()``.
    ///
    /// A kept connection that has closed meanwhile (the server restarted) goes back to the pool,
    /// which drops it.
    func takeOrWait() -> Lease? {
        let (lease, dead) = state.withLock { state -> (Lease?, Lease?) in
            if let parked = state.parked {
                state.parked = nil
                if !parked.connection.isClosed { return (parked, nil) }
                state.waiting += 1
                return (nil, parked)
            }
            state.waiting += 1
            return (nil, nil)
        }
        dead?.release()
        return lease
    }

    /// The caller no longer waits for the pool: it has a connection, or gave up. Once per
    /// ``takeOrWait()`` that returned `nil`.
    func stopWaiting() {
        state.withLock { $0.waiting = max(0, $0.waiting - 1) }
    }

    /// Keeps `lease` for the next call, or gives it back to the pool when a call waits for the
    /// pool, another lease is kept, or the storage stopped.
    func park(_ lease: Lease) {
        let kept = state.withLock { state -> Bool in
            guard !state.closed, state.waiting == 0, state.parked == nil else { return false }
            state.parked = lease
            return true
        }
        if !kept { lease.release() }
    }

    /// Whether the kept connection has closed; `nil` when none is kept.
    var keptConnectionIsClosed: Bool? {
        state.withLock { $0.parked?.connection.isClosed }
    }

    /// Gives the kept lease back and keeps none from now on.
    func close() {
        let parked = state.withLock { state -> Lease? in
            state.closed = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.release()
    }
}
