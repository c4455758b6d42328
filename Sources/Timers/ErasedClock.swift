/// A `Clock<Duration>` with its instant type erased to offsets from the moment of erasure.
struct ErasedClock: Sendable {
    /// The time elapsed since the clock was erased.
    let now: @Sendable () -> Duration

    /// Sleeps until the given offset since erasure.
    let sleep: @Sendable (Duration) async throws -> Void

    /// The clock as a ``SettlingClock``, when it is one (``ManualClock``).
    let settling: (any SettlingClock)?

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { offset in
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
        }
        settling = clock as? any SettlingClock
    }
}
