import BenchmarkSupport
import Foundation
import Observation
import SingletonStores
import StoreObservation
import Stores
import Synchronization

/// Energy of a countdown: the CPU time (user + system) and the wake-ups (voluntary context
/// switches) of a `seconds`-long countdown shown on two screens, each variant in a process of
/// its own, the three at the same time. Set-up is not counted: the figures run from the
/// countdown's start to its end.
///
/// - `ours`: `BoostTimeManager.startCountDown(duration:)`; one screen follows its
///   NotificationCenter posts, the other Swift Observation of `remainingSeconds`.
/// - `naive`: one repeating 1 s Foundation `Timer` per screen, on a run-loop thread.
/// - `limit`: one task that sleeps until each whole second (`sleep(until:)`) and does nothing
///   else.
func measureEnergy(seconds: Int) throws -> [String: EnergyResult] {
    let variants = ["ours", "naive", "limit"]
    let children = try variants.map { try Child(["energy", $0, String(seconds)]) }
    defer { for child in children { child.stop() } }
    var results: [String: EnergyResult] = [:]
    for (variant, child) in zip(variants, children) {
        guard let line = child.nextLine(within: Int32(clamping: (seconds + 60) * 1_000)) else {
            throw CostError("the \(variant) countdown reported nothing")
        }
        let fields = line.split(separator: " ")
        guard fields.count == 4, fields[0] == "result", let cpu = Double(fields[1]), let wakeUps = Int(fields[2]),
            let shown = Int(fields[3])
        else { throw CostError("the \(variant) countdown reported '\(line)'") }
        results[variant] = EnergyResult(cpuMilliseconds: cpu, wakeUps: wakeUps, shownSeconds: shown, seconds: seconds)
    }
    return results
}

/// The countdown child: `energy <ours|naive|limit> <seconds>`. Prints `result <cpu ms>
/// <wake-ups> <seconds shown>` when the countdown is over.
func runCountdown(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 2, let seconds = Int(arguments[1]), (1...3_600).contains(seconds) else { return 2 }
    let shown = Mutex(0)
    let before: ResourceUsage
    switch arguments[0] {
    case "ours":
        let center = NotificationCenter()
        let boost = BoostTimeManager(storage: InMemoryStorage(), center: center, watching: .off)
        let ended = DispatchSemaphore(value: 0)
        // The main screen: the store's posts.
        let ticks = NotificationChannel.boostTime.observe(center: center) { _ in shown.withLock { $0 += 1 } }
        let ends = NotificationChannel.boostEnded.observe(center: center) { _ in ended.signal() }
        // The popup: Swift Observation, re-registered after each change, as SwiftUI does.
        let popup = ObservedScreen { boost.remainingSeconds }
        before = ResourceUsage.now
        boost.startCountDown(duration: seconds)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                ended.wait()
                done.resume()
            }.start()
        }
        withExtendedLifetime((ticks, ends, popup)) {}
    case "naive":
        before = ResourceUsage.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
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
                done.resume()
            }.start()
        }
    case "limit":
        let clock = ContinuousClock()
        before = ResourceUsage.now
        let start = clock.now
        for second in 1...seconds {
            try? await clock.sleep(until: start + .seconds(second), tolerance: nil)
            shown.withLock { $0 += 1 }
        }
    default:
        return 2
    }
    let used = ResourceUsage.now - before
    say(String(format: "result %.3f %d %d", used.cpuMilliseconds, used.voluntarySwitches, shown.withLock { $0 }))
    return 0
}
