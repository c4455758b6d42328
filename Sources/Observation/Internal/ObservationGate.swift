import Dispatch
import Foundation
import SingletonStoresLocking
import Synchronization

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
/// that gap: each call is checked and counted right where the handler would run (on the posting
/// thread, in the queue's operation, on the main actor), and ``close()`` waits for the calls
/// already counted on other threads to return.
///
/// A call costs two atomic operations on one word, which holds the closed flag and the number
/// of calls running. A lock is taken only when the gate closes while calls run: by ``close()``,
/// to wait, and by the last of those calls, to wake it. The handler always runs outside any
/// lock.
@usableFromInline
final class ObservationGate: Sendable {
    /// Bit 0: the gate is closed. The other bits: twice the number of calls running now.
    private let word = Atomic<Int>(0)
    /// The `close()` calls waiting for the running calls to return.
    private let waiters = Locked<[DispatchSemaphore]>([])

    @usableFromInline
    init() {}

    /// Runs `handler` unless the gate is closed; while it runs, ``close()`` on another thread
    /// waits for it.
    @usableFromInline
    func pass(_ handler: () -> Void) {
        var current = word.load(ordering: .relaxed)
        while true {
            if current & Self.closedBit != 0 { return }
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: current &+ Self.oneCall, ordering: .acquiring)
            if exchanged { break }
            current = original
        }
        let depth = HandlerDepth.counter()
        depth?.pointee &+= 1
        defer {
            depth?.pointee &-= 1
            finish()
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
        // Once closed, no call starts, so the calls to wait for are exactly those running now.
        let before = word.bitwiseOr(Self.closedBit, ordering: .acquiringAndReleasing).oldValue
        if before < Self.oneCall || insideAHandler { return }
        let semaphore = DispatchSemaphore(value: 0)
        let mustWait = waiters.withLock { waiters -> Bool in
            // The last call may have returned since: it checks for waiters under this lock
            // after counting itself out, so a waiter added while calls remain is woken.
            guard word.load(ordering: .acquiring) >= Self.oneCall else { return false }
            waiters.append(semaphore)
            return true
        }
        guard mustWait else { return }
        semaphore.wait()
        // Takes the lock once more so that the thread sanitizer sees the finished calls
        // happen before this thread goes on (it cannot see through the semaphore).
        waiters.withLock { _ in }
    }

    private func finish() {
        let after = word.subtract(Self.oneCall, ordering: .releasing).newValue
        // Closed with no call left: wake whoever waits in `close()`.
        guard after == Self.closedBit else { return }
        let released = waiters.withLock { waiters -> [DispatchSemaphore] in
            defer { waiters.removeAll() }
            return waiters
        }
        for semaphore in released { semaphore.signal() }
    }

    private static let closedBit = 1
    private static let oneCall = 2
}

/// How many handler calls the current thread is inside (nested posts nest them), kept in a
/// counter of the thread's own that a thread-specific slot points to: a call reads the slot once
/// and then touches only memory no other thread uses.
private enum HandlerDepth {
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    /// The slot; `nil` if the system had none to give (then a cancel from inside a handler is
    /// not recognised, and waits like any other). A thread's counter is freed when it exits.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { counter in free(counter) }) == 0 ? key : nil
    }()

    /// This thread's counter, made on first use; `nil` if there is no slot or no memory.
    static func counter() -> UnsafeMutablePointer<Int>? {
        guard let key else { return nil }
        if let existing = pthread_getspecific(key) {
            return existing.assumingMemoryBound(to: Int.self)
        }
        guard let memory = malloc(MemoryLayout<Int>.size) else { return nil }
        let made = memory.initializeMemory(as: Int.self, repeating: 0, count: 1)
        guard pthread_setspecific(key, memory) == 0 else {
            free(memory)
            return nil
        }
        return made
    }

    static var current: Int {
        guard let key, let existing = pthread_getspecific(key) else { return 0 }
        return existing.assumingMemoryBound(to: Int.self).pointee
    }
    #else
    static func counter() -> UnsafeMutablePointer<Int>? { nil }
    static var current: Int { 0 }
    #endif
}
