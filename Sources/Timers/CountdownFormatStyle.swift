import Foundation

/// Formats a number of seconds the way a countdown screen shows it: `mm:ss`, or `h:mm:ss` from
/// one hour up.
///
/// ```swift
/// let labels = [754, 59, 3_725].map { $0.formatted(.countdown) }  // ["12:34", "00:59", "1:02:05"]
/// ```
///
/// Negative values are shown as `"00:00"`: a countdown never shows less than nothing.
public struct CountdownFormatStyle: FormatStyle, Sendable {
    /// Creates the countdown style.
    public init() {}

    /// The text for `seconds`: `"mm:ss"` below one hour, `"h:mm:ss"` from one hour up.
    ///
    /// - Parameter seconds: Whole seconds left; negative values count as zero.
    public func format(_ seconds: Int) -> String {
        let total = max(0, seconds)
        let hours = total / 3_600
        let minutes = total % 3_600 / 60
        let secs = total % 60
        if hours > 0 {
            return "\(hours):\(Self.twoDigits(minutes)):\(Self.twoDigits(secs))"
        }
        return "\(Self.twoDigits(minutes)):\(Self.twoDigits(secs))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension FormatStyle where Self == CountdownFormatStyle {
    /// The countdown style: `mm:ss`, or `h:mm:ss` from one hour up.
    ///
    /// ```swift
    /// let label = 754.formatted(.countdown)  // "12:34"
    /// ```
    public static var countdown: CountdownFormatStyle {
        CountdownFormatStyle()
    }
}
