import Foundation
import SingletonStoresLocking
import Timers

/// This process's view of the countdown, in monotonic time, and the bookkeeping that moves the
/// countdown to each committed change in commit order.
struct CountdownModel: Sendable {
    /// Where the countdown is, on the countdown's monotonic clock.
    enum Phase: Equatable, Sendable {
        /// No countdown.
        case idle
        /// Counting down to `deadline` (over once it has passed).
        case running(deadline: CountdownTimer.Instant)
        /// Paused with `remaining` left.
        case paused(remaining: Duration)

        /// The seconds shown while a countdown is running or paused; `nil` when there is none.
        func shownSeconds(at now: CountdownTimer.Instant) -> Int? {
            let shown: Int
            switch self {
            case .idle: return nil
            case .running(let deadline): shown = Countdown(deadline: deadline).shownSeconds(at: now)
            case .paused(let remaining): shown = Countdown(deadline: now.advanced(by: remaining)).shownSeconds(at: now)
            }
            return shown > 0 ? shown : nil
        }
    }

    /// A change committed to disk, waiting to become this process's phase.
    struct Commit: Sendable {
        /// Its place in the commit order of this process.
        var ticket: UInt64
        /// The phase it committed.
        var phase: Phase
        /// The record it left on disk.
        var record: CountdownRecord
        /// Whether the countdown must move: the phase changed, or was adopted from disk.
        var movesCountdown: Bool
    }

    /// The newest committed phase.
    var phase: Phase
    /// The record on disk that ``phase`` corresponds to; a different record on disk means
    /// another process changed the countdown.
    var committed: CountdownRecord
    /// Tickets handed out, and the newest one finished.
    private var issued: UInt64 = 0
    private var finished: UInt64 = 0
    /// Phases for the countdown to move to, in commit order.
    var outbox = Outbox<Phase>()
    /// Locked transactions of this process under way; news from the disk that comes meanwhile
    /// is followed once they are done (``followAgain``).
    var transactionsUnderWay = 0
    /// Whether news from the disk came while a transaction was under way.
    var followAgain = false

    /// How many tickets were handed out: a follow that read the disk without a lock adopts it
    /// only if none was handed out since it started.
    var ticketsIssued: UInt64 { issued }

    /// Ends a transaction; returns whether news came meanwhile that must now be followed.
    mutating func endTransaction() -> Bool {
        transactionsUnderWay -= 1
        guard transactionsUnderWay == 0, followAgain else { return false }
        followAgain = false
        return true
    }

    init(phase: Phase, committed: CountdownRecord) {
        self.phase = phase
        self.committed = committed
    }

    /// Takes a ticket for a change being committed (called under the document's lock, so
    /// tickets follow the order of the writes).
    mutating func begin(_ phase: Phase, record: CountdownRecord, movesCountdown: Bool) -> Commit {
        issued &+= 1
        return Commit(ticket: issued, phase: phase, record: record, movesCountdown: movesCountdown)
    }

    /// Makes a written change this process's phase, unless a later one already did; returns
    /// whether the caller must deliver the queued phases to the countdown.
    mutating func finish(_ commit: Commit) -> Bool {
        guard commit.ticket > finished else { return false }
        finished = commit.ticket
        phase = commit.phase
        committed = commit.record
        guard commit.movesCountdown else { return false }
        outbox.append(commit.phase)
        return outbox.claim()
    }

    /// The phase a record on disk describes, now (see ``CountdownRecord`` for how the time left of
    /// a running countdown is read).
    static func phase(
        of record: CountdownRecord, at now: CountdownTimer.Instant, wallClock: WallClock, bootClock: BootClock
    ) -> Phase {
        if let paused = record.pausedRemainingSeconds, paused > 0 {
            let limit = CountdownTimer.maximumDuration
            let remaining = paused.isFinite && paused < limit.seconds ? Duration.seconds(paused) : limit
            // A time left too small for a Duration (1e-300 s) is no time left.
            return remaining > .zero ? .paused(remaining: remaining) : .idle
        }
        if let left = record.runningTimeLeft(wallClock: wallClock, bootClock: bootClock), left > .zero {
            return .running(deadline: now.advanced(by: min(left, CountdownTimer.maximumDuration)))
        }
        return .idle
    }

    /// The record that describes `phase`, now.
    static func record(
        of phase: Phase, at now: CountdownTimer.Instant, wallClock: WallClock, bootClock: BootClock, settled: String?
    ) -> CountdownRecord {
        switch phase {
        case .running(let deadline) where now.duration(to: deadline) > .zero:
            CountdownRecord.running(
                endDate: wallClock.date(after: now.duration(to: deadline)), left: now.duration(to: deadline),
                bootClock: bootClock, settled: settled)
        case .paused(let remaining):
            CountdownRecord(pausedRemainingSeconds: remaining.seconds, settledGrantID: settled)
        case .idle, .running:
            CountdownRecord(settledGrantID: settled)
        }
    }
}
