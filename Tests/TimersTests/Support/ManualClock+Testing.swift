import Testing
@testable import Timers

extension ManualClock.Instant {
    /// The instant `seconds` after zero.
    static func seconds(_ seconds: Int) -> Self {
        Self(offset: .seconds(seconds))
    }
}
