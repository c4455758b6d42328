extension ManualClock {
    /// A point in a ``ManualClock``'s time: the duration since the clock's zero.
    ///
    /// ```swift
    /// let start = ManualClock.Instant(offset: .seconds(10))
    /// let later = start.advanced(by: .seconds(5))  // ManualClock.Instant(offset: .seconds(15))
    /// ```
    public typealias Instant = OffsetInstant<ManualClock>
}
