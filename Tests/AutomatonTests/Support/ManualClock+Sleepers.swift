import Testing
import Timers

extension ManualClock {
    /// The instant `seconds` after the clock's zero.
    func at(_ seconds: Int) -> Instant {
        Instant(offset: .seconds(seconds))
    }
}
