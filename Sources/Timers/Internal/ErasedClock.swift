/// A `Clock<Duration>` with its instant type erased to offsets from the moment of erasure.
///
/// `package`: the kit's coalescing writes sleep on the clock a store was given the same way.
package struct ErasedClock: Sendable {
    /// The time elapsed since the clock was erased.
    package let now: @Sendable () -> Duration

    /// Sleeps until the given offset since erasure.
    package let sleep: @Sendable (Duration) async throws -> Void

    /// The clock as a ``SettlingClock``, when it is one (``ManualClock``).
    package let settling: (any SettlingClock)?

    #if canImport(Glibc) || canImport(Musl)
    /// The process's ticker for the clock, when it is `ContinuousClock` or `SuspendingClock`:
    /// timers wake there instead of sleeping on the clock. `nil` for every other clock.
    let ticker: RealClockTicker.Line?
    #endif

    /// Erases `clock`.
    ///
    /// - Parameters:
    ///   - clock: The clock.
    ///   - ticking: Whether timers will wake on the process's ticker (its thread starts on first
    ///     use); `false` for a user that only sleeps on the clock.
    package init<C: Clock>(_ clock: C, ticking: Bool = true) where C.Duration == Duration {
        let origin = clock.now
        #if canImport(Glibc) || canImport(Musl)
        // Read right after the origin: see `RealClockTicker.Line`.
        ticker = ticking ? RealClockTicker.line(for: clock) : nil
        #endif
        now = { origin.duration(to: clock.now) }
        sleep = { offset in
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
        }
        settling = clock as? any SettlingClock
    }
}
