import Foundation
import Synchronization
import Timers

/// How a countdown that should tick once a second on the real clock actually ticked.
public struct TickErrors: Codable, Sendable {
    /// Lateness of each tick (actual − ideal instant, the ideal being start + k s), in ms.
    public var errorsMilliseconds: [Double]
    /// Ticks that never came (a repeating `Timer` skips fires it missed).
    public var missing: Int

    public init(errorsMilliseconds: [Double], missing: Int = 0) {
        self.errorsMilliseconds = errorsMilliseconds
        self.missing = missing
    }

    /// Mean absolute tick error, ms.
    public var mean: Double {
        errorsMilliseconds.isEmpty ? 0 : errorsMilliseconds.map(abs).reduce(0, +) / Double(errorsMilliseconds.count)
    }
    /// Largest absolute tick error, ms.
    public var max: Double { errorsMilliseconds.map(abs).max() ?? 0 }
    /// The error at the last tick: what has accumulated over the whole countdown, ms.
    public var last: Double { errorsMilliseconds.last ?? 0 }
}

/// The three ways to count down once a second that the accuracy benchmark compares.
public enum CountdownVariant: String, CaseIterable, Codable, Sendable {
    /// `CountdownTimer` on `ContinuousClock`: sleeps until each deadline − n s.
    case ours
    /// The limit: one task sleeping until each whole second after the start
    /// (`Task.sleep(until:)` on `ContinuousClock`) and noting the instant — no timer state, no
    /// lock, no handler. Every countdown built on Swift's concurrency runtime waits this way.
    case deadlineSleep = "deadline"
    /// A loop of `Task.sleep(for: .seconds(1))`, decrementing a counter.
    case sleepLoop = "sleep"
    /// A repeating Foundation `Timer` on its own run-loop thread (one per screen), decrementing
    /// a counter.
    case foundationTimer = "timer"

    /// Counts down `ticks` seconds and returns the error of every tick.
    public func run(ticks: Int) async -> TickErrors {
        var result =
            switch self {
            case .ours: await runOurs(ticks: ticks)
            case .deadlineSleep: await runDeadlineSleep(ticks: ticks)
            case .sleepLoop: await runSleepLoop(ticks: ticks)
            case .foundationTimer: await runFoundationTimer(ticks: ticks)
            }
        result.missing = max(0, ticks - result.errorsMilliseconds.count)
        return result
    }
}

private func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

private func errors(_ instants: [ContinuousClock.Instant], from start: ContinuousClock.Instant) -> TickErrors {
    TickErrors(
        errorsMilliseconds: instants.enumerated().map { index, instant in
            milliseconds(instant - (start + .seconds(index + 1)))
        })
}

/// Collects tick instants from whatever thread ticks.
private final class TickLog: Sendable {
    private let instants = Mutex<[ContinuousClock.Instant]>([])
    func record(_ instant: ContinuousClock.Instant) { instants.withLock { $0.append(instant) } }
    var all: [ContinuousClock.Instant] { instants.withLock { $0 } }
}

private func runOurs(ticks: Int) async -> TickErrors {
    let log = TickLog()
    let timer = CountdownTimer(clock: ContinuousClock()) { event in
        let now = ContinuousClock.now
        if case .tick(let shown) = event, shown < ticks { log.record(now) }
    }
    // The countdown starts when it is asked to: setting the timer up is not part of it (the
    // first timer made in a process also pays for loading the code it runs).
    let start = ContinuousClock.now
    timer.start(duration: .seconds(ticks))
    await timer.waitUntilEnded()
    return errors(log.all, from: start)
}

private func runDeadlineSleep(ticks: Int) async -> TickErrors {
    var instants: [ContinuousClock.Instant] = []
    instants.reserveCapacity(ticks)
    let clock = ContinuousClock()
    let start = clock.now
    for tick in 1...ticks {
        try? await clock.sleep(until: start + .seconds(tick), tolerance: nil)
        instants.append(clock.now)
    }
    return errors(instants, from: start)
}

private func runSleepLoop(ticks: Int) async -> TickErrors {
    var instants: [ContinuousClock.Instant] = []
    var remaining = ticks
    let start = ContinuousClock.now
    while remaining > 0 {
        try? await Task.sleep(for: .seconds(1))
        remaining -= 1
        instants.append(ContinuousClock.now)
    }
    return errors(instants, from: start)
}

private func runFoundationTimer(ticks: Int) async -> TickErrors {
    let log = TickLog()
    let start = Mutex(ContinuousClock.now)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        // Resumed exactly once: by the last tick, or when the run loop gives up (a repeating
        // `Timer` skips fires it missed, so under load it may never reach the last tick).
        let finished = Mutex(false)
        let finish: @Sendable () -> Void = {
            if finished.withLock({ value in
                defer { value = true }; return !value
            }) {
                done.resume()
            }
        }
        let thread = Thread {
            let remaining = Mutex(ticks)
            // The countdown starts when the timer is made, on its thread.
            start.withLock { $0 = ContinuousClock.now }
            // The first fire one interval from now, as `scheduledTimer(withTimeInterval:)`
            // documents (corelibs' `Timer(timeInterval:)` fires its first tick at once).
            let timer = Timer(fire: Date(timeIntervalSinceNow: 1), interval: 1, repeats: true) { timer in
                let now = ContinuousClock.now
                log.record(now)
                let left = remaining.withLock { value -> Int in
                    value -= 1
                    return value
                }
                if left == 0 {
                    timer.invalidate()
                    finish()
                }
            }
            RunLoop.current.add(timer, forMode: .default)
            RunLoop.current.run(until: Date(timeIntervalSinceNow: Double(ticks) + 5))
            timer.invalidate()
            finish()
        }
        thread.start()
        // corelibs' `run(until:)` does not always return at its date once fires were skipped:
        // a watchdog ends the measurement 5 s after the last tick was due.
        Task {
            try? await Task.sleep(for: .seconds(ticks + 5))
            finish()
        }
    }
    return errors(log.all, from: start.withLock { $0 })
}

/// Keeps one core busy with a shell loop for as long as it lives.
public final class BusyCore {
    private let process = Process()

    /// Starts a shell loop that spins until it is terminated — or until this process is gone,
    /// so that an interrupted benchmark leaves no spinning shell behind.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null; do :; done"]
        try process.run()
    }

    /// Stops the loop: SIGKILL (the shell may inherit a blocked SIGTERM from this process's
    /// threads), then up to two seconds for it to go.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(2)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
    }

    deinit { stop() }
}

/// The accuracy results of one run: condition ("idle", "busy") → variant → errors.
public typealias CountdownAccuracyResults = [String: [String: TickErrors]]
