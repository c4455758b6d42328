extension CountdownTimer {
    /// A point in a ``CountdownTimer``'s time: the duration since the timer was created, measured
    /// on the clock it was created with.
    ///
    /// The timer erases its clock, so its instants are offsets of their own. Compare them with
    /// ``CountdownTimer/now``:
    ///
    /// ```swift
    /// if let deadline = timer.deadline {
    ///     let left = timer.now.duration(to: deadline)  // the same as timer.remaining
    ///     print(left)
    /// }
    /// ```
    public typealias Instant = OffsetInstant<CountdownTimer>
}
