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
    /// How many writers of each path got the lock and left: the queue moving on is progress.
    private var served: [String: UInt64] = [:]

    /// Joins the queue of `path` and waits until first in it.
    ///
    /// - Parameters:
    ///   - path: The lock file's path.
    ///   - patience: How long to wait without progress (a writer ahead getting the lock and
    ///     leaving counts); `nil` to give up at once when another thread is queued.
    /// - Returns: The ticket to ``leave(_:ticket:served:)`` with, or `nil` when patience ran
    ///   out first (then the queue was left).
    func enter(_ path: String, patience: inout LockPatience?) -> UInt64? {
        condition.lock()
        defer { condition.unlock() }
        if patience == nil, waiting[path]?.isEmpty == false { return nil }
        nextTicket &+= 1
        let ticket = nextTicket
        waiting[path, default: []].append(ticket)
        var seen = served[path, default: 0]
        while waiting[path]?.first != ticket {
            if served[path, default: 0] != seen {
                seen = served[path, default: 0]
                patience?.progressed()
            }
            guard let left = patience?.remaining() else {
                remove(ticket, from: path)
                return nil
            }
            // Wake now and then to look for commits by other processes.
            let nap = min(left, .milliseconds(50))
            let (seconds, attoseconds) = nap.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
        }
        return ticket
    }

    /// Leaves the queue of `path`, letting the next thread in.
    ///
    /// - Parameter served: Whether this writer got the lock (progress for those behind it).
    func leave(_ path: String, ticket: UInt64, served: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if served { self.served[path, default: 0] &+= 1 }
        remove(ticket, from: path)
        if waiting[path] == nil { self.served[path] = nil }
    }

    private func remove(_ ticket: UInt64, from path: String) {
        waiting[path]?.removeAll { $0 == ticket }
        if waiting[path]?.isEmpty == true { waiting[path] = nil }
        condition.broadcast()
    }
}
