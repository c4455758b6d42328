import Synchronization
import Timers

/// Runs a one-hour countdown on a `ManualClock`: starts it, advances the clock by one hour, and
/// returns how many ticks were delivered (3,601: the start value 3,600 and every second down to 0)
/// and whether the end was reported.
public func runManualClockHour() async -> (ticks: Int, ended: Bool) {
    let clock = ManualClock()
    let ticks = Atomic<Int>(0)
    let ended = Atomic<Bool>(false)
    let timer = CountdownTimer(clock: clock) { event in
        switch event {
        case .tick: ticks.add(1, ordering: .relaxed)
        case .ended: ended.store(true, ordering: .relaxed)
        }
    }
    timer.start(duration: .seconds(3_600))
    await clock.advance(by: .seconds(3_600))
    return (ticks.load(ordering: .relaxed), ended.load(ordering: .relaxed))
}
