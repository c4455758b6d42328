extension CountdownTimer {
    /// A point in a ``CountdownTimer``'s time: the duration since the timer was created, measured
    /// on the clock it was created with.
    ///
    /// The timer erases its clock, so its instants are offsets of their own. Compare them with
    /// ``CountdownTimer/now``:
    ///
    /// ```swift
    /// if let deadline = timer.deadline {
    ///     let left = timer.now.duration(to: deadline) // same as timer.remaining
    /// }
    /// ```
    ///
    /// Arithmetic saturates at the largest and smallest `Duration` instead of trapping.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The duration from the timer's creation to this instant.
        public var offset: Duration

        /// Creates the instant `offset` after the timer's creation.
        ///
        /// - Parameter offset: The duration since the timer was created.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` after this one (before it, if `duration` is negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset.saturatingAdding(duration))
        }

        /// The duration from this instant to `other`; negative if `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset.saturatingSubtracting(offset)
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset since the timer's creation, for example `"90.0 seconds"`.
        public var description: String {
            offset.description
        }
    }
}
