/// A clock that runs `speed` times faster than `ContinuousClock`: a demo of a 10-second boost
/// with `--speed 20` takes half a second of real time, and every countdown on it still ticks at
/// its exact (scaled) instants.
///
/// ```swift
/// let clock = ScaledClock(speed: 20)
/// try await clock.sleep(for: .seconds(1))   // 50 ms of real time
/// ```
///
/// Its `now` is the time the clock was created plus the real time elapsed since, times `speed`;
/// sleeping until an instant sleeps the real time left divided by `speed`.
struct ScaledClock: Clock {
    typealias Instant = ContinuousClock.Instant

    /// How many times faster than real time the clock runs; above zero.
    let speed: Double
    private let base = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// Creates a clock running `speed` times faster than real time; `speed` must be above zero
    /// and finite (anything else runs at real time).
    init(speed: Double) {
        self.speed = speed.isFinite && speed > 0 ? speed : 1
        origin = base.now
    }

    var now: Instant {
        origin + (base.now - origin) * speed
    }

    var minimumResolution: Duration {
        base.minimumResolution * speed
    }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let wait = (deadline - now) / speed
        try await base.sleep(until: base.now + max(wait, .zero), tolerance: tolerance.map { $0 / speed })
    }
}
