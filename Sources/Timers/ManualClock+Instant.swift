extension ManualClock {
    /// A point in a ``ManualClock``'s time: the duration since the clock's zero.
    ///
    /// ```swift
    /// let start = ManualClock.Instant(offset: .seconds(10))
    /// start.advanced(by: .seconds(5)) == ManualClock.Instant(offset: .seconds(15)) // true
    /// ```
    ///
    /// Arithmetic saturates at the largest and smallest `Duration` instead of trapping.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The duration from the clock's zero to this instant.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's zero.
        ///
        /// - Parameter offset: The duration since zero; zero by default.
        public init(offset: Duration = .zero) {
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

        /// The offset from zero, for example `"90.0 seconds"`.
        public var description: String {
            offset.description
        }
    }
}
