import Dispatch
import Foundation
import SingletonStoresLocking

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The door every call of one observer's handler goes through, so that
/// ``ObservationToken/cancel()`` can promise that the handler is not called once it returns.
///
/// NotificationCenter takes a snapshot of its observers when a post begins, so a post that began
/// on another thread just before `removeObserver` still calls the removed block afterwards, and
/// an operation already added to a queue runs whenever the queue gets to it. The gate closes
/// that gap: each call is checked and counted under the gate's lock right where the handler
/// would run (on the posting thread, in the queue's operation, on the main actor), and
/// ``close()`` waits for the calls already counted on other threads to return.
///
/// The handler itself always runs outside the lock.
@usableFromInline
final class ObservationGate: Sendable {
    private let state = Locked(State())

    @usableFromInline
    init() {}

    /// Runs `handler` unless the gate is closed; while it runs, ``close()`` on another thread
    /// waits for it.
    @usableFromInline
    func pass(_ handler: () -> Void) {
        let thread = currentThreadKey()
        let call = state.withLock { state -> UInt64? in
            guard !state.isClosed else { return nil }
            state.lastCall &+= 1
            state.calls.append(Call(id: state.lastCall, thread: thread))
            return state.lastCall
        }
        guard let call else { return }
        defer { finish(call) }
        handler()
    }

    /// Closes the gate: no call starts after this method returns, and none is still running
    /// then — except a call on the current thread (when a handler cancels its own token) and,
    /// in that case only, calls in progress on other threads, which this thread does not wait
    /// for: two handler calls cancelling their token at the same moment would otherwise wait
    /// for each other forever.
    func close() {
        let thread = currentThreadKey()
        let waiter = state.withLock { state -> DispatchSemaphore? in
            state.isClosed = true
            if state.calls.isEmpty || state.calls.contains(where: { $0.thread == thread }) { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(Waiter(pending: Set(state.calls.map(\.id)), semaphore: semaphore))
            return semaphore
        }
        guard let waiter else { return }
        waiter.wait()
        // Takes the lock once more so that the thread sanitizer sees the finished calls
        // happen before this thread goes on (it cannot see through the semaphore).
        state.withLock { _ in }
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    private func finish(_ call: UInt64) {
        let released = state.withLock { state -> [DispatchSemaphore] in
            state.calls.removeAll { $0.id == call }
            guard !state.waiters.isEmpty else { return [] }
            var released: [DispatchSemaphore] = []
            var index = 0
            while index < state.waiters.count {
                state.waiters[index].pending.remove(call)
                if state.waiters[index].pending.isEmpty {
                    released.append(state.waiters.remove(at: index).semaphore)
                } else {
                    index += 1
                }
            }
            return released
        }
        for semaphore in released { semaphore.signal() }
    }
}

extension ObservationGate {
    private struct Call {
        let id: UInt64
        let thread: UInt
    }

    /// A `close()` waiting for the calls that were running when it closed the gate.
    private struct Waiter {
        var pending: Set<UInt64>
        let semaphore: DispatchSemaphore
    }

    private struct State {
        var isClosed = false
        var lastCall: UInt64 = 0
        /// The calls running now; rarely more than one.
        var calls: [Call] = []
        var waiters: [Waiter] = []
    }
}

/// An identity for the current thread, unique among the threads alive.
private func currentThreadKey() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #elseif canImport(Glibc) || canImport(Musl)
    UInt(pthread_self())
    #else
    UInt(bitPattern: ObjectIdentifier(Thread.current).hashValue)
    #endif
}
