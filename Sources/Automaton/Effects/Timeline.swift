/// Time on an injected clock as offsets from the moment the automaton was created, so instants of
/// an `any Clock<Duration>` can be compared and slept until.
struct Timeline: Sendable {
    let elapsed: @Sendable () -> Duration
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
    }
}
