import SingletonStoresLocking

// The state behind a CountdownTimer, changed only under its lock.

extension CountdownTimer {
    /// Work decided under the lock and done after it is released.
    struct Effects: Sendable {
        var cancelled: Wake?
        var launch: UInt64?
        var waiters: [CheckedContinuation<Void, Never>] = []
        var deliver = false
    }

    /// What wakes the running countdown at its next change: its task sleeping on the clock, or
    /// (for the real clocks on Linux) its entry on the process's ticker thread.
    enum Wake: Sendable {
        case task(Task<Void, Never>)
        #if canImport(Glibc) || canImport(Musl)
        case ticket(RealClockTicker.Ticket)
        #endif

        /// Ends the wait: cancels the task's sleep, or drops the ticker entry.
        func cancel() {
            switch self {
            case .task(let task): task.cancel()
            #if canImport(Glibc) || canImport(Musl)
            case .ticket(let ticket): ticket.cancel()
            #endif
            }
        }
    }

    enum Phase: Sendable {
        case idle
        case running(Countdown<Instant>)
        case paused(remaining: Duration)
        case ended

        var countdown: Countdown<Instant>? {
            if case .running(let countdown) = self { return countdown }
            return nil
        }

        var isPaused: Bool {
            if case .paused = self { return true }
            return false
        }

        var isActive: Bool {
            switch self {
            case .running, .paused: true
            case .idle, .ended: false
            }
        }

        func remaining(at now: Instant) -> Duration {
            switch self {
            case .running(let countdown): countdown.remaining(at: now)
            case .paused(let remaining): remaining
            case .idle, .ended: .zero
            }
        }
    }

    struct State: Sendable {
        var phase = Phase.idle
        /// The shown value last reported for the current countdown.
        var lastShown: Int?
        /// Identifies the current countdown task; a task whose epoch is not current does nothing.
        var epoch: UInt64 = 0
        var wake: Wake?
        /// How many countdowns have been set going (tasks started, or first ticker entries).
        var tasksStarted = 0
        var outbox = Outbox<Event>()
        var endWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiterID: UInt64 = 0

        /// Queues a tick if `shown` differs from the last reported value.
        mutating func report(_ shown: Int) {
            guard shown != lastShown else { return }
            lastShown = shown
            outbox.append(.tick(shown))
        }

        /// Ends the current countdown: `tick(0)` first if it finished, then `ended(reason)`.
        mutating func finish(_ reason: EndReason, effects: inout Effects) {
            if reason == .finished { report(0) }
            outbox.append(.ended(reason))
            phase = .ended
            stopTask(effects: &effects)
            effects.waiters = Array(endWaiters.values)
            endWaiters.removeAll()
        }

        /// Drops the current countdown silently, as a new start does.
        mutating func replaceCountdown(effects: inout Effects) {
            stopTask(effects: &effects)
            lastShown = nil
        }

        /// Retires the current task (if any) and asks for a new one.
        mutating func reschedule(effects: inout Effects) {
            stopTask(effects: &effects)
            effects.launch = epoch
        }

        mutating func stopTask(effects: inout Effects) {
            epoch &+= 1
            effects.cancelled = wake
            wake = nil
        }
    }
}
