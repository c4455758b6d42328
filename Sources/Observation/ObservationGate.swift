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
    private let state: Locked<State>

    @usableFromInline
    init() {
        state = Locked(State())
    }

    /// Runs `handler` unless the gate is closed; while it runs, ``close()`` on another thread
    /// waits for it.
    @usableFromInline
    func pass(_ handler: () -> Void) {
        let thread = currentThreadKey()
        let admitted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.callers.insert(thread)
            return true
        }
        guard admitted else { return }
        HandlerDepth.enter()
        defer {
            HandlerDepth.leave()
            finish(on: thread)
        }
        handler()
    }

    /// Closes the gate: no call starts after this method returns, and none is still running
    /// then — except when this thread is itself inside a handler call (of this observer or of
    /// any other): then calls in progress on other threads are not waited for. Two handlers
    /// cancelling each other's tokens at the same moment (or one handler running on two
    /// threads, cancelling its own) would otherwise wait for each other forever.
    func close() {
        let insideAHandler = HandlerDepth.current > 0
        let waiter = state.withLock { state -> DispatchSemaphore? in
            state.isClosed = true
            // Once closed, no call starts, so the calls to wait for are exactly those running now.
            if state.callers.isEmpty || insideAHandler { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(semaphore)
            return semaphore
        }
        guard let waiter else { return }
        waiter.wait()
        // Takes the lock once more so that the thread sanitizer sees the finished calls
        // happen before this thread goes on (it cannot see through the semaphore).
        state.withLock { _ in }
    }

    private func finish(on thread: UInt) {
        let released = state.withLock { state -> [DispatchSemaphore] in
            state.callers.remove(thread)
            guard state.callers.isEmpty, !state.waiters.isEmpty else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for semaphore in released { semaphore.signal() }
    }
}

extension ObservationGate {
    private struct State {
        var isClosed = false
        /// The thread of every call running now.
        var callers = Callers()
        /// The `close()` calls waiting for the running calls to return.
        var waiters: [DispatchSemaphore] = []
    }

    /// The threads of the calls running now, one entry per call. Almost always there is at most
    /// one, and it is kept inline: a call touches no storage but the gate's own.
    private struct Callers {
        private var first: UInt?
        private var others: [UInt] = []

        var isEmpty: Bool { first == nil && others.isEmpty }

        mutating func insert(_ thread: UInt) {
            if first == nil { first = thread } else { others.append(thread) }
        }

        /// Removes one entry for `thread`.
        mutating func remove(_ thread: UInt) {
            if first == thread {
                first = nil
            } else if let index = others.lastIndex(of: thread) {
                others.remove(at: index)
            }
        }
    }
}

/// How many handler calls the current thread is inside (nested posts nest them), kept in a
/// thread-specific slot so that reading it costs no lock.
private enum HandlerDepth {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// The slot; `nil` if the system had none to give (then a cancel from inside a handler is
    /// not recognised, and waits like any other).
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    static var current: Int {
        guard let key else { return 0 }
        return Int(bitPattern: pthread_getspecific(key))
    }

    static func enter() { set(current &+ 1) }

    static func leave() { set(current &- 1) }

    private static func set(_ depth: Int) {
        guard let key else { return }
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth))
    }
    #else
    static var current: Int { 0 }
    static func enter() {}
    static func leave() {}
    #endif
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
