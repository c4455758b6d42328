import SingletonStoresTestSupport
@testable import Timers

/// An event with the manual clock's time at which the handler received it.
struct Stamped: Hashable, Sendable, CustomStringConvertible {
    var event: CountdownTimer.Event
    var at: ManualClock.Instant

    var description: String {
        "\(event)@\(at)"
    }
}

/// A countdown timer on a manual clock that records every event with the clock's time.
final class TimerProbe: Sendable {
    let clock: ManualClock
    let events = Recorder<Stamped>()
    let timer: CountdownTimer

    init(clock: ManualClock = ManualClock()) {
        self.clock = clock
        let events = self.events
        timer = CountdownTimer(clock: clock) { event in
            events.append(Stamped(event: event, at: clock.now))
        }
    }

    /// The recorded ticks' shown values, in order.
    var ticks: [Int] {
        events.values.compactMap { stamped in
            if case .tick(let seconds) = stamped.event { return seconds }
            return nil
        }
    }

    /// How many end events were recorded.
    var endCount: Int {
        events.values.count { stamped in
            if case .ended = stamped.event { return true }
            return false
        }
    }
}

/// `.tick(n)` stamped at `seconds` on the manual clock (fractions allowed).
func tick(_ shown: Int, at seconds: Double) -> Stamped {
    Stamped(event: .tick(shown), at: ManualClock.Instant(offset: .milliseconds(Int64((seconds * 1_000).rounded()))))
}

/// `.ended(reason)` stamped at `seconds` on the manual clock.
func ended(_ reason: CountdownTimer.EndReason, at seconds: Double) -> Stamped {
    Stamped(event: .ended(reason), at: ManualClock.Instant(offset: .milliseconds(Int64((seconds * 1_000).rounded()))))
}
