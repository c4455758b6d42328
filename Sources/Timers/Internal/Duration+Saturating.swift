// Overflow-free arithmetic on `Duration`, used wherever an input could push a time past what a
// `Duration` (a 128-bit count of attoseconds) can hold. The standard operators trap there.

extension Duration {
    /// The largest representable duration.
    static let greatest = Duration(attoseconds: .max)

    /// The most negative representable duration.
    static let least = Duration(attoseconds: .min)

    /// `self + other`, clamped to `least ... greatest` instead of trapping.
    func saturatingAdding(_ other: Duration) -> Duration {
        let (sum, overflow) = attoseconds.addingReportingOverflow(other.attoseconds)
        guard overflow else { return Duration(attoseconds: sum) }
        return other.attoseconds > 0 ? .greatest : .least
    }

    /// `self - other`, clamped to `least ... greatest` instead of trapping.
    func saturatingSubtracting(_ other: Duration) -> Duration {
        let (difference, overflow) = attoseconds.subtractingReportingOverflow(other.attoseconds)
        guard overflow else { return Duration(attoseconds: difference) }
        return other.attoseconds < 0 ? .greatest : .least
    }
}
