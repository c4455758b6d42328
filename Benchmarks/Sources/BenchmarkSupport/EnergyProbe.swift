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
        let screens = BoostOnTwoScreens { shown.withLock { $0 += 1 } }
        screens.start(seconds: seconds)
        screens.ended.wait()
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
        runTimerPerScreen(seconds: seconds) { shown.withLock { $0 += 1 } }
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

/// The energy row's countdown: a `BoostTimeManager` countdown shown on two screens, a main
/// screen that follows its posts and a popup that follows Swift Observation (re-registering
/// after each change, as SwiftUI does).
public final class BoostOnTwoScreens: Sendable {
    /// Signalled when the boost ends.
    public let ended = DispatchSemaphore(value: 0)
    private let boost: BoostTimeManager
    private let ticks: ObservationToken
    private let ends: ObservationToken
    private let popup: ObservedScreen<Int>

    /// The store and its two screens; `onShown` is called for each second the main screen shows.
    public init(onShown: @escaping @Sendable () -> Void) {
        let center = NotificationCenter()
        let boost = BoostTimeManager(storage: InMemoryStorage(), center: center, watching: .off)
        let ended = ended
        self.boost = boost
        ticks = NotificationChannel.boostTime.observe(center: center) { _ in onShown() }
        ends = NotificationChannel.boostEnded.observe(center: center) { _ in ended.signal() }
        popup = ObservedScreen { boost.remainingSeconds }
    }

    /// Starts a boost of `seconds`.
    public func start(seconds: Int) {
        boost.startCountDown(duration: seconds)
    }
}

/// What an app starts from: a repeating Foundation `Timer` per screen (two), on the current
/// thread's run loop, each counting `seconds` down on its own; returns when both are done.
/// `onShown` is called for each second the first screen shows.
public func runTimerPerScreen(seconds: Int, onShown: @escaping @Sendable () -> Void) {
    let left = Mutex([seconds, seconds])
    for screen in 0..<2 {
        let timer = Timer(fire: Date(timeIntervalSinceNow: 1), interval: 1, repeats: true) { timer in
            let remaining = left.withLock { left -> Int in
                left[screen] -= 1
                return left[screen]
            }
            if screen == 0 { onShown() }
            if remaining <= 0 { timer.invalidate() }
        }
        RunLoop.current.add(timer, forMode: .default)
    }
    while left.withLock({ $0.contains { $0 > 0 } }) {
        _ = RunLoop.current.run(mode: .default, before: .distantFuture)
    }
}
