/// A countdown to a deadline: what is left, what a screen shows, and when that changes.
///
/// A countdown stores nothing but its deadline; everything else is derived from the time you
/// ask at, so every reader that asks at the same instant gets the same answer and nothing
/// drifts:
///
/// ```swift
/// let now = ContinuousClock.now
/// let boost = Countdown(deadline: now.advanced(by: .seconds(90)))
///
/// let shown = boost.shownSeconds(at: now)                 // 90
/// let atTheEnd = boost.shownSeconds(at: boost.deadline)   // 0, exactly at the deadline
/// let label = shown.formatted(.countdown)                 // "01:30"
/// ```
///
/// The shown value is the remaining time rounded *up* to whole seconds: 89.001 s shows 90, and 0
/// appears exactly at the deadline. So the shown value `n` holds from `deadline - n s` until
/// `deadline - (n - 1) s`, never longer than a second, and changes only at the instants
/// `deadline - n s` that ``nextChange(after:)`` returns.
public struct Countdown<Instant: InstantProtocol>: Hashable, Sendable where Instant.Duration == Duration {
    /// The instant the countdown reaches zero.
    public var deadline: Instant

    /// Creates a countdown that reaches zero at `deadline`.
    ///
    /// - Parameter deadline: The instant the countdown ends.
    public init(deadline: Instant) {
        self.deadline = deadline
    }

    /// The time left at `now`: zero at or after the deadline, never negative.
    ///
    /// - Parameter now: The instant to measure from.
    public func remaining(at now: Instant) -> Duration {
        max(.zero, now.duration(to: deadline))
    }

    /// Whether the countdown has reached zero at `now`.
    ///
    /// - Parameter now: The instant to check at.
    public func hasEnded(at now: Instant) -> Bool {
        now >= deadline
    }

    /// The whole seconds a screen shows at `now`: the remaining time rounded up.
    ///
    /// Rounding up makes `0` appear exactly at the deadline and never earlier. A remaining time
    /// beyond `Int.max` seconds shows `Int.max`.
    ///
    /// - Parameter now: The instant to read at.
    public func shownSeconds(at now: Instant) -> Int {
        remaining(at: now).secondsRoundedUp
    }

    /// The first instant strictly after `now` at which the shown value changes, or `nil` if the
    /// countdown has already ended at `now`.
    ///
    /// The shown value changes at the instants `deadline - n s` for whole `n >= 0`; the last
    /// change is to `0`, at the deadline itself.
    ///
    /// - Parameter now: The instant to look ahead from.
    public func nextChange(after now: Instant) -> Instant? {
        let shown = shownSeconds(at: now)
        guard shown > 0 else { return nil }
        return deadline.advanced(by: .zero - .seconds(shown - 1))
    }
}

extension Duration {
    /// Whole seconds, rounded up (towards positive infinity), clamped to the range of `Int`.
    var secondsRoundedUp: Int {
        let perSecond: Int128 = 1_000_000_000_000_000_000
        let atto = attoseconds
        var seconds = atto / perSecond
        if atto % perSecond > 0 { seconds += 1 }
        return Int(clamping: seconds)
    }
}
