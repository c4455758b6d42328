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
        let screens = BoostOnTwoScreens { shown.withLock { $0 += 1 } }
        before = ResourceUsage.now
        screens.start(seconds: seconds)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                screens.ended.wait()
                done.resume()
            }.start()
        }
    case "naive":
        before = ResourceUsage.now
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                runTimerPerScreen(seconds: seconds) { shown.withLock { $0 += 1 } }
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
