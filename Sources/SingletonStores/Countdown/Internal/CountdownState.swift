import Foundation
import Timers

/// A countdown store's state, kept by its ``PersistentStoreCore``: the record on disk (merged
/// with the newest grant, if the countdown reads grants) and where this process's countdown
/// is, in monotonic time.
///
/// The document holds the record alone: it is encoded and decoded as the record, so the
/// countdown's documents are those it has always written. The phase is derived from the record
/// when a record is read (``phase(of:at:wallClock:bootClock:)``), and decided by each change;
/// it is kept while the disk still holds the record it goes with, so that a countdown's
/// deadline does not move each time the disk is read.
struct CountdownState: Codable, Sendable, Equatable {
    /// Where the countdown is, on the countdown's monotonic clock.
    enum Phase: Equatable, Sendable {
        /// No countdown.
        case idle
        /// Counting down to `deadline` (over once it has passed).
        case running(deadline: CountdownTimer.Instant)
        /// Paused with `remaining` left.
        case paused(remaining: Duration)

        /// This phase with `duration` (clamped to the longest countdown) added to the time left of
        /// a running or paused countdown, the time left clamped too; no countdown stays none.
        func extended(by duration: Duration, at now: CountdownTimer.Instant) -> Phase {
            let added = min(duration, CountdownTimer.maximumDuration)
            switch self {
            case .running(let deadline):
                let left = max(now.duration(to: deadline), .zero)
                return .running(deadline: now.advanced(by: min(left + added, CountdownTimer.maximumDuration)))
            case .paused(let remaining):
                return .paused(remaining: min(remaining + added, CountdownTimer.maximumDuration))
            case .idle:
                return .idle
            }
        }

        /// This phase paused (`true`: the time left freezes; a countdown already over ends) or
        /// resumed (`false`: it runs on with the time it had left); any other phase as it is.
        func pausing(_ paused: Bool, at now: CountdownTimer.Instant) -> Phase {
            switch (paused, self) {
            case (true, .running(let deadline)):
                let left = now.duration(to: deadline)
                return left > .zero ? .paused(remaining: left) : .idle
            case (false, .paused(let remaining)):
                return .running(deadline: now.advanced(by: remaining))
            default:
                return self
            }
        }

        /// Starts a countdown of `duration` (clamped) unless one is running or paused: then the
        /// refusal, with the seconds it shows, and the phase as it is.
        mutating func startIfIdle(_ duration: Duration, at now: CountdownTimer.Instant) -> CountdownError? {
            if let running = shownSeconds(at: now) { return .alreadyRunning(remainingSeconds: running) }
            self = .running(deadline: now.advanced(by: min(duration, CountdownTimer.maximumDuration)))
            return nil
        }

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

    /// The record on disk; a different record on disk means another process changed the
    /// countdown.
    var record: CountdownRecord
    /// The phase ``record`` describes in this process; `nil` for a record just decoded, whose
    /// phase is not derived yet.
    var phase: Phase?

    init(record: CountdownRecord, phase: Phase?) {
        self.record = record
        self.phase = phase
    }

    init(from decoder: any Decoder) throws {
        record = try CountdownRecord(from: decoder)
        phase = nil
    }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
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
