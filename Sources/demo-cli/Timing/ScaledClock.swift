/// A clock that runs `speed` times faster than another one: a demo of a 10-second boost with
/// `--speed 20` takes half a second of real time, and every countdown on it still ticks at its
/// exact (scaled) instants.
///
/// ```swift
/// let clock = ScaledClock(speed: 20)        // over ContinuousClock
/// try await clock.sleep(for: .seconds(1))   // 50 ms of real time
/// ```
///
/// Its `now` is the base clock's time when it was created plus the base time elapsed since,
/// times `speed`; sleeping until an instant sleeps the base time left divided by `speed`.
struct ScaledClock<Base: Clock>: Clock where Base.Duration == Duration {
    typealias Instant = Base.Instant

    /// How many times faster than the base clock this clock runs; above zero.
    let speed: Double
    private let base: Base
    private let origin: Base.Instant

    /// Creates a clock running `speed` times faster than `base`. A `speed` that is not a finite
    /// number above zero runs at the base clock's pace.
    init(speed: Double, base: Base) {
        self.speed = speed.isFinite && speed > 0 ? speed : 1
        self.base = base
        origin = base.now
    }

    var now: Instant {
        origin.advanced(by: origin.duration(to: base.now) * speed)
    }

    var minimumResolution: Duration {
        base.minimumResolution * speed
    }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let wait = now.duration(to: deadline) / speed
        try await base.sleep(until: base.now.advanced(by: max(wait, .zero)), tolerance: tolerance.map { $0 / speed })
    }
}

extension ScaledClock where Base == ContinuousClock {
    /// Creates a clock running `speed` times faster than real time.
    init(speed: Double) {
        self.init(speed: speed, base: ContinuousClock())
    }
}
