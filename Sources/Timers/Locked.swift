import Synchronization

/// State guarded by a `Mutex`, in a form ThreadSanitizer can follow on every platform.
///
/// On Linux, `Mutex` hands a contended lock over inside the kernel (a priority-inheriting futex),
/// where ThreadSanitizer cannot see it, so it reports races between critical sections that the
/// lock does serialize. Each critical section here also does an acquire-release increment of an
/// atomic counter on entry and on exit; consecutive critical sections thereby synchronize through
/// the atomic too, which ThreadSanitizer understands. The cost is two uncontended atomic
/// operations per critical section.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    private let handOver = Atomic<Int>(0)

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value. Never call out to other objects from `body`.
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in
            handOver.add(1, ordering: .acquiringAndReleasing)
            defer { handOver.add(1, ordering: .acquiringAndReleasing) }
            return body(&value)
        }
    }
}
