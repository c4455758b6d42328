import Foundation

/// Where the current calendar date and time come from: the system in production, a
/// ``ManualWallClock`` in tests.
///
/// A running countdown follows a monotonic clock, so a user who changes the device time cannot
/// stretch or cut it. What must survive a relaunch, though, is a calendar date: the monotonic
/// clock restarts with the device. So persist the *end date* when a countdown starts, and turn it
/// back into a duration when the app comes back:
///
/// ```swift
/// let wallClock = WallClock.system
/// // Starting:
/// timer.start(duration: .seconds(1_800))
/// let endDate = wallClock.date(after: timer.remaining)  // persist this
/// // After relaunch:
/// relaunchedTimer.start(duration: wallClock.duration(until: endDate))
/// ```
public struct WallClock: Sendable {
    /// Returns the current date.
    public var now: @Sendable () -> Date

    /// Creates a wall clock that reads the date from `now`.
    ///
    /// - Parameter now: Returns the current date each time it is called.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The device's boot time line that moves with this wall clock: the system's for
    /// ``system``, none for a clock of your own (a ``ManualWallClock`` in a test), whose time
    /// the device's boot clock would not follow.
    package var bootClock: BootClock = .unavailable

    /// The system's date and time.
    public static let system: WallClock = {
        var clock = WallClock { Date() }
        clock.bootClock = .system
        return clock
    }()

    /// A wall clock stopped at `date`.
    ///
    /// - Parameter date: The date it always returns.
    public static func fixed(_ date: Date) -> WallClock {
        WallClock { date }
    }

    /// The date `duration` from now, for persisting the end of a countdown.
    ///
    /// Negative durations give dates in the past.
    ///
    /// - Parameter duration: The time left.
    public func date(after duration: Duration) -> Date {
        now().addingTimeInterval(duration.timeInterval)
    }

    /// The time from now until `date`, for restoring a countdown from a persisted end date.
    ///
    /// Zero if `date` is now or past, and clamped to ``CountdownTimer/maximumDuration``; a date
    /// too far away to measure (an infinite or not-a-number interval) gives zero for the past
    /// side and the maximum for the future side, never a trap.
    ///
    /// - Parameter date: The persisted end date.
    public func duration(until date: Date) -> Duration {
        Duration(clampingSeconds: date.timeIntervalSince(now()))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        TimeInterval(attoseconds) / 1e18
    }

    /// `seconds` as a duration clamped to `0 ... CountdownTimer.maximumDuration`; NaN counts as
    /// zero.
    init(clampingSeconds seconds: TimeInterval) {
        let maximum = CountdownTimer.maximumDuration
        if seconds.isNaN || seconds <= 0 {
            self = .zero
        } else if seconds >= maximum.timeInterval {
            self = maximum
        } else {
            self = .nanoseconds(Int64((seconds * 1e9).rounded()))
        }
    }
}
