/// What a running effect gets: the automaton's clock, and a way to send inputs back.
///
/// ```swift
/// let ticker = Effect<TimerInput>.run { context in
///     for _ in 0..<3 {
///         try await context.sleep(for: .seconds(1))
///         await context.send(.tick)
///     }
/// }
/// ```
///
/// Take time only from ``clock`` (or ``sleep(for:)``), never from a clock of your own, so tests
/// can drive the effect with a manual clock.
public struct EffectContext<Input: Sendable>: Sendable {
    /// The clock injected into the automaton.
    public let clock: any Clock<Duration>

    private let deliver: @Sendable (Input) async -> Bool

    init(clock: any Clock<Duration>, deliver: @escaping @Sendable (Input) async -> Bool) {
        self.clock = clock
        self.deliver = deliver
    }

    /// Sends `input` to the automaton, as a follow-up of this effect.
    ///
    /// The input is dropped once this effect has been cancelled or the automaton shut down.
    ///
    /// - Returns: Whether the input was delivered and accepted by the automaton's mapping.
    @discardableResult
    public func send(_ input: Input) async -> Bool {
        await deliver(input)
    }

    /// Sleeps for `duration` on the automaton's clock.
    ///
    /// - Throws: `CancellationError` when the effect is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
}
