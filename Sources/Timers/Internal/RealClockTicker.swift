#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// One thread per process and clock that wakes the countdowns running on a real clock, on Linux.
///
/// A `clock.sleep(until:)` on the concurrency runtime wakes libdispatch's timer thread, which
/// wakes a pool thread to resume the task, which pokes the timer thread again to re-arm: four
/// thread wake-ups and a dozen system calls for each shown second. This thread instead waits on
/// a condition variable with an absolute timeout for the earliest deadline it holds, wakes once
/// per due instant, runs what is due on itself, and waits again: one wake-up and one system call.
///
/// Deadlines are absolute instants on the clock, so nothing drifts; an action never runs before
/// its instant (see ``Line``). Actions run on the ticker's thread, one after another, never
/// under its lock; an action may schedule and cancel.
///
/// The state is guarded by a pthread mutex rather than a `Locked`, because the thread sleeps on
/// a condition variable tied to that mutex (ThreadSanitizer follows pthread mutexes natively).
final class RealClockTicker: @unchecked Sendable {
    // @unchecked: `entries`, `nextID`, `isWaiting` and `waitingFor` are only touched with
    // `mutex` held (inside `locked`, or by the thread around its wait).

    /// A scheduled action, for cancelling it.
    struct Ticket: Sendable {
        fileprivate let ticker: RealClockTicker
        fileprivate let id: UInt64

        /// Drops the action if it has not run yet.
        func cancel() { ticker.cancel(id) }
    }

    /// A clock's erased offsets as seen by a ticker: its POSIX time at the clock's origin.
    ///
    /// The origin is read on the POSIX clock just *after* the Swift clock's origin was read, and
    /// the Swift clock reads the same kernel clock, so a converted deadline is at or (by the
    /// nanoseconds between the two reads) after the true instant: a tick is never early.
    struct Line: Sendable {
        let ticker: RealClockTicker
        /// The ticker's POSIX time at the erased clock's origin (or just after it).
        let origin: Duration

        /// Runs `action` on the ticker's thread once the erased clock reaches `offset`.
        func schedule(at offset: Duration, _ action: @escaping @Sendable () -> Void) -> Ticket {
            ticker.schedule(at: origin.saturatingAdding(offset), action)
        }
    }

    private struct Entry {
        var id: UInt64
        var deadline: Duration
        var action: @Sendable () -> Void
    }

    private let clockID: clockid_t
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Few: one per running countdown.
    private var entries: [Entry] = []
    private var nextID: UInt64 = 0
    /// Whether the thread is waiting (not running actions), and for which deadline (`nil`:
    /// for none, until signalled).
    private var isWaiting = false
    private var waitingFor: Duration?

    /// The ticker for `ContinuousClock` (`CLOCK_BOOTTIME` on Linux), started on first use.
    static let continuous = RealClockTicker(clockID: CLOCK_BOOTTIME)
    /// The ticker for `SuspendingClock` (`CLOCK_MONOTONIC` on Linux), started on first use.
    static let suspending = RealClockTicker(clockID: CLOCK_MONOTONIC)

    /// The line for `clock` when it is one of the standard library's real clocks; `nil` for any
    /// other clock (a manual or scaled one), which keeps sleeping on its own.
    ///
    /// Call it right after reading the clock's origin.
    static func line<C: Clock>(for clock: C) -> Line? where C.Duration == Duration {
        let isContinuous = C.self == ContinuousClock.self
        guard isContinuous || C.self == SuspendingClock.self else { return nil }
        // The time first: the first use of a ticker starts its thread, which takes a while.
        let origin = now(on: isContinuous ? CLOCK_BOOTTIME : CLOCK_MONOTONIC)
        return Line(ticker: isContinuous ? continuous : suspending, origin: origin)
    }

    private init(clockID: clockid_t) {
        self.clockID = clockID
        pthread_mutex_init(mutex, nil)
        // The timed waits count on CLOCK_MONOTONIC, which setting the date does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        // The tickers are process-wide constants: the thread lives as long as the process.
        let thread = Thread { self.run() }
        thread.name = "countdown-ticks"
        thread.start()
    }

    /// A POSIX clock's time now.
    private static func now(on clockID: clockid_t) -> Duration {
        var spec = timespec()
        clock_gettime(clockID, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> Ticket {
        let (id, wake) = locked { () -> (UInt64, Bool) in
            nextID &+= 1
            entries.append(Entry(id: nextID, deadline: deadline, action: action))
            // Only a thread waiting for something later needs waking; one running actions
            // looks at the entries again before it waits.
            guard isWaiting, waitingFor.map({ deadline < $0 }) ?? true else { return (nextID, false) }
            isWaiting = false
            return (nextID, true)
        }
        if wake { pthread_cond_signal(condition) }
        return Ticket(ticker: self, id: id)
    }

    /// Drops an entry. The thread is not woken for it: if it was the next one, the thread wakes
    /// at its instant once, finds nothing due, and waits again.
    private func cancel(_ id: UInt64) {
        locked {
            if let index = entries.firstIndex(where: { $0.id == id }) { entries.remove(at: index) }
        }
    }

    /// The thread: runs what is due, then waits for the next deadline or a signal.
    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            let now = Self.now(on: clockID)
            var due: [Entry] = []
            var next: Duration?
            var index = 0
            while index < entries.count {
                let deadline = entries[index].deadline
                if deadline <= now {
                    due.append(entries.remove(at: index))
                } else {
                    if next.map({ deadline < $0 }) ?? true { next = deadline }
                    index += 1
                }
            }
            if !due.isEmpty {
                pthread_mutex_unlock(mutex)
                for entry in due.sorted(by: { $0.deadline < $1.deadline }) { entry.action() }
                pthread_mutex_lock(mutex)
                continue
            }
            isWaiting = true
            waitingFor = next
            if let next {
                // The same span on CLOCK_MONOTONIC, which never runs ahead of the ticker's
                // clock: the wait ends at or after the deadline.
                let target = Self.now(on: CLOCK_MONOTONIC) + (next - now)
                let (seconds, attoseconds) = target.components
                var spec = timespec()
                spec.tv_sec = time_t(clamping: seconds)
                spec.tv_nsec = Int(attoseconds / 1_000_000_000)
                pthread_cond_timedwait(condition, mutex, &spec)
            } else {
                pthread_cond_wait(condition, mutex)
            }
            isWaiting = false
        }
    }
}
#endif
