/// A point in time given as the duration since some zero: the instants of ``ManualClock`` and of
/// ``CountdownTimer``.
///
/// `Origin` only keeps instants of different origins apart — a manual clock's instants cannot be
/// compared with a timer's by mistake:
///
/// ```swift
/// let start = ManualClock.Instant(offset: .seconds(10))
/// let later = start.advanced(by: .seconds(5))  // ManualClock.Instant(offset: .seconds(15))
/// ```
///
/// Arithmetic saturates at the largest and smallest `Duration` instead of trapping.
public struct OffsetInstant<Origin>: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The duration from the zero to this instant.
    public var offset: Duration

    /// Creates the instant `offset` after the zero.
    ///
    /// - Parameter offset: The duration since zero; zero by default.
    public init(offset: Duration = .zero) {
        self.offset = offset
    }

    /// The instant `duration` after this one (before it, if `duration` is negative).
    public func advanced(by duration: Duration) -> Self {
        Self(offset: offset.saturatingAdding(duration))
    }

    /// The duration from this instant to `other`; negative if `other` is earlier.
    public func duration(to other: Self) -> Duration {
        other.offset.saturatingSubtracting(offset)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.offset < rhs.offset
    }

    /// The offset from zero, for example `"90.0 seconds"`.
    public var description: String {
        offset.description
    }
}
