import Synchronization

/// State behind a `Synchronization.Mutex`, in a form ThreadSanitizer can follow.
///
/// On Linux a contended `Mutex` is handed from thread to thread inside the kernel (a futex),
/// where ThreadSanitizer cannot see it, so it reports races between critical sections that the
/// lock does serialise (a bare `Mutex<[Int]>` appended to from four threads is enough to show
/// it). In debug builds — the ones `swift test --sanitize=thread` makes — each critical section
/// here also performs an acquire-release increment of an atomic on entry and on exit, so
/// consecutive critical sections synchronise through the atomic too, which ThreadSanitizer
/// understands. Release builds use the `Mutex` alone.
///
/// Every module of the package that locks keeps its state in a `Locked` (Automaton uses an actor);
/// none calls out from inside `withLock`.
///
/// The type is inlinable so that generic clients (`StoreCore<State>`) are specialised at the
/// call site: an unspecialised call looks up `Mutex<Value>`'s metadata at run time on every
/// lock, which costs more than the lock itself.
@usableFromInline
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    #if DEBUG
    @usableFromInline let handOver = Atomic<Int>(0)
    #endif

    /// Creates the lock holding `initialValue`.
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    ///
    /// - Parameter body: The critical section. It must not post notifications, call observers
    ///   or call into other objects that may take locks.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            // The fence stays inline, in both methods: passing `value` inout to a shared helper
            // would begin the access to it before the fence, and the sanitizer would see races.
            #if DEBUG
            handOver.add(1, ordering: .acquiringAndReleasing)
            defer { handOver.add(1, ordering: .acquiringAndReleasing) }
            #endif
            return try body(&value)
        }
    }

    /// Runs `body` with exclusive access to the value if the lock is free right now; returns
    /// `nil` without waiting otherwise.
    ///
    /// - Parameter body: The critical section; the same rules as ``withLock(_:)``.
    package borrowing func withLockIfAvailable<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
            // The fence stays inline, in both methods: passing `value` inout to a shared helper
            // would begin the access to it before the fence, and the sanitizer would see races.
            #if DEBUG
            handOver.add(1, ordering: .acquiringAndReleasing)
            defer { handOver.add(1, ordering: .acquiringAndReleasing) }
            #endif
            return try body(&value)
        }
    }
}
