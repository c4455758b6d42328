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
///
/// No input traps. The speed is kept within ``speedRange`` (a tiny speed runs at its lower end,
/// a huge one at its upper end; zero, a negative number or one that is not finite runs at the
/// base clock's pace), and every scaled duration saturates at the largest `Duration` instead of
/// overflowing. A sleep whose deadline lies further away than ``longestBaseSleep`` of base time
/// sleeps in several steps of at most that length, so the base clock is never asked for an
/// instant it cannot represent.
struct ScaledClock<Base: Clock>: Clock where Base.Duration == Duration {
    typealias Instant = Base.Instant

    /// The speeds a scaled clock runs at: from a thousandth of the base pace to a thousand times
    /// it. `--speed` accepts the same range.
    static var speedRange: ClosedRange<Double> { 0.001...1000 }

    /// The longest stretch of base time one sleep of the base clock covers: about 31 years.
    static var longestBaseSleep: Duration { .seconds(1_000_000_000) }

    /// How many times faster than the base clock this clock runs; within ``speedRange``.
    let speed: Double
    private let base: Base
    private let origin: Base.Instant

    /// Creates a clock running `speed` times faster than `base`.
    ///
    /// A `speed` outside ``speedRange`` is clamped to it; zero, a negative number, NaN and the
    /// infinities run at the base clock's pace.
    init(speed: Double, base: Base) {
        self.speed = Self.usableSpeed(speed)
        self.base = base
        origin = base.now
    }

    /// `speed` clamped to ``speedRange``, or 1 when it is not a finite number above zero.
    static func usableSpeed(_ speed: Double) -> Double {
        guard speed.isFinite, speed > 0 else { return 1 }
        return min(max(speed, speedRange.lowerBound), speedRange.upperBound)
    }

    var now: Instant {
        origin.advanced(by: origin.duration(to: base.now).saturatingScaled(by: speed))
    }

    var minimumResolution: Duration {
        base.minimumResolution.saturatingScaled(by: speed)
    }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let baseTolerance = tolerance.map { $0.saturatingScaled(by: 1 / speed) }
        while true {
            let wait = now.duration(to: deadline).saturatingScaled(by: 1 / speed)
            guard wait > .zero else { return }
            let step = min(wait, Self.longestBaseSleep)
            try await base.sleep(until: base.now.advanced(by: step), tolerance: baseTolerance)
            if step == wait { return }
        }
    }
}

extension ScaledClock where Base == ContinuousClock {
    /// Creates a clock running `speed` times faster than real time.
    init(speed: Double) {
        self.init(speed: speed, base: ContinuousClock())
    }
}

extension Duration {
    /// `self` times `factor`, saturating at the largest and smallest `Duration` instead of
    /// trapping; a result that is not a number (a factor of NaN) is zero.
    func saturatingScaled(by factor: Double) -> Duration {
        let product = Double(attoseconds) * factor
        guard !product.isNaN else { return .zero }
        // 2^127 is the first Double beyond Int128.max; -2^127 is Int128.min exactly.
        let limit = 0x1p127
        if product >= limit { return Duration(attoseconds: .max) }
        if product <= -limit { return Duration(attoseconds: .min) }
        return Duration(attoseconds: Int128(product))
    }
}
