import SingletonStoresLocking
import Foundation

/// A wall clock for tests, whose date you set and jump.
///
/// ```swift
/// let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
/// let endDate = wall.wallClock.date(after: .seconds(600))
/// wall.advance(by: .seconds(3_600))                           // the user moves the device time forward
/// let left = wall.wallClock.duration(until: endDate)          // .zero: a restore now finds the boost over
/// ```
public final class ManualWallClock: Sendable {
    private let date: Locked<Date>

    /// Creates a wall clock that reads `now` until you change it.
    ///
    /// - Parameter now: The initial date; the reference date (1 January 2001) by default.
    public init(now: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        date = Locked(now)
    }

    /// The current date of this clock.
    public var now: Date {
        date.withLock { $0 }
    }

    /// A ``WallClock`` that reads this clock, to inject into the code under test.
    public var wallClock: WallClock {
        WallClock { self.now }
    }

    /// Sets the date, forwards or backwards, as a user changing the device time would.
    ///
    /// - Parameter newDate: The new current date.
    public func set(to newDate: Date) {
        date.withLock { $0 = newDate }
    }

    /// Moves the date by `duration`; a negative duration moves it back.
    ///
    /// - Parameter duration: How far to jump.
    public func advance(by duration: Duration) {
        date.withLock { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }
}
