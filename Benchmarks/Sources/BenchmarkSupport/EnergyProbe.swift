import Foundation
import Observation
import SingletonStores
import StoreObservation
import Stores
import Synchronization
import Timers

/// The countdowns of `cost-benchmarks`' energy row, run with the main thread blocked instead of
/// suspended, for `valgrind --tool=callgrind` (which cannot follow a main thread parked in
/// `dispatchMain()`): `ours` (a `BoostTimeManager` countdown on two screens, one following its
/// posts and one Swift Observation), `naive` (a repeating `Timer` per screen, on the main
/// thread's run loop) and `limit` (a task sleeping until each whole second); and, to split
/// `ours`, `timer` (a bare `CountdownTimer` on `ContinuousClock`) and `store` (the
/// `BoostTimeManager` countdown with no screen). Returns the seconds shown, or `nil` for an
/// unknown variant.
public func runEnergyProbe(_ variant: String, seconds: Int) -> Int? {
    let shown = Mutex(0)
    let ended = DispatchSemaphore(value: 0)
    switch variant {
    case "ours":
        let center = NotificationCenter()
        let boost = BoostTimeManager(storage: InMemoryStorage(), center: center, watching: .off)
        let ticks = NotificationChannel.boostTime.observe(center: center) { _ in shown.withLock { $0 += 1 } }
        let ends = NotificationChannel.boostEnded.observe(center: center) { _ in ended.signal() }
        let popup = ObservedScreen { boost.remainingSeconds }
        boost.startCountDown(duration: seconds)
        ended.wait()
        withExtendedLifetime((ticks, ends, popup)) {}
    case "timer":
        let timer = CountdownTimer(clock: ContinuousClock()) { event in
            if case .tick = event { shown.withLock { $0 += 1 } } else { ended.signal() }
        }
        timer.start(duration: .seconds(seconds))
        ended.wait()
    case "store":
        let center = NotificationCenter()
        let boost = BoostTimeManager(storage: InMemoryStorage(), center: center, watching: .off)
        let ends = NotificationChannel.boostEnded.observe(center: center) { _ in ended.signal() }
        boost.startCountDown(duration: seconds)
        ended.wait()
        withExtendedLifetime(ends) {}
    case "naive":
        let left = Mutex([seconds, seconds])
        for screen in 0..<2 {
            let timer = Timer(fire: Date(timeIntervalSinceNow: 1), interval: 1, repeats: true) { timer in
                let remaining = left.withLock { left -> Int in
                    left[screen] -= 1
                    return left[screen]
                }
                if screen == 0 { shown.withLock { $0 += 1 } }
                if remaining <= 0 { timer.invalidate() }
            }
            RunLoop.current.add(timer, forMode: .default)
        }
        while left.withLock({ $0.contains { $0 > 0 } }) {
            _ = RunLoop.current.run(mode: .default, before: .distantFuture)
        }
    case "limit":
        Task.detached {
            let clock = ContinuousClock()
            let start = clock.now
            for second in 1...max(1, seconds) {
                try? await clock.sleep(until: start + .seconds(second), tolerance: nil)
                shown.withLock { $0 += 1 }
            }
            ended.signal()
        }
        ended.wait()
    default:
        return nil
    }
    return shown.withLock { $0 }
}
