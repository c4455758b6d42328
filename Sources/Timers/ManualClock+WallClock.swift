import Foundation

extension ManualClock {
    /// A wall clock that moves with this clock: it reads `date` now, and every ``advance(by:)``
    /// or ``jump(by:)`` moves both time lines at once.
    ///
    /// Code that needs both a monotonic clock and the calendar — a countdown whose end is saved
    /// as a date, a refill at midnight — then takes one clock in a test:
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let wall = clock.wallClock(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
    /// await clock.advance(by: .seconds(90))
    /// let later = wall.now()  // 90 s after the start date
    /// ```
    ///
    /// - Parameter date: The date the wall clock reads at the clock's current instant.
    /// - Returns: A wall clock that follows this clock.
    public func wallClock(startingAt date: Date) -> WallClock {
        let origin = now
        return WallClock { [self] in
            date.addingTimeInterval(origin.duration(to: now).timeInterval)
        }
    }
}
