import Foundation

/// This process's writers of one lock file, first come, first served.
///
/// `flock(LOCK_NB)` polling is not fair: a thread that sleeps between polls loses the lock to
/// one that re-takes it at once, and eight threads of one process writing in a loop can starve
/// one of them past its timeout. So the threads of a process queue here first, in order, and
/// only the first of each lock file polls `flock`; the wait in this queue counts toward the
/// same timeout.
final class LockQueue: @unchecked Sendable {
    /// The queues of this process.
    static let shared = LockQueue()

    // Guards `waiting` and `nextTicket`; waiters sleep on it.
    private let condition = NSCondition()
    /// The tickets queued for each lock file's path; the first one may lock the file.
    private var waiting: [String: [UInt64]] = [:]
    private var nextTicket: UInt64 = 0

    /// Joins the queue of `path` and waits until first in it.
    ///
    /// - Parameters:
    ///   - path: The lock file's path.
    ///   - deadline: When to give up, on the monotonic clock; `nil` to give up at once when
    ///     another thread is queued.
    /// - Returns: The ticket to ``leave(_:ticket:)`` with, or `nil` when the deadline passed
    ///   first (then the queue was left).
    func enter(_ path: String, until deadline: ContinuousClock.Instant?) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        if deadline == nil, waiting[path]?.isEmpty == false { return nil }
        nextTicket &+= 1
        let ticket = nextTicket
        waiting[path, default: []].append(ticket)
        let clock = ContinuousClock()
        while waiting[path]?.first != ticket {
            let left = (deadline ?? clock.now) - clock.now
            guard left > .zero else {
                remove(ticket, from: path)
                return nil
            }
            let (seconds, attoseconds) = left.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
        }
        return ticket
    }

    /// Leaves the queue of `path`, letting the next thread in.
    func leave(_ path: String, ticket: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        remove(ticket, from: path)
    }

    private func remove(_ ticket: UInt64, from path: String) {
        waiting[path]?.removeAll { $0 == ticket }
        if waiting[path]?.isEmpty == true { waiting[path] = nil }
        condition.broadcast()
    }
}
