/// A named lane for effects, with a policy for how many run at once and an optional spacing
/// between their starts.
///
/// Effects that name the same queue (same name, policy and delay) share its limit:
///
/// ```swift
/// let auth = EffectQueue("auth", policy: .newest(1))
/// let loginEffect = Effect<LoginInput>(queue: auth) { context in
///     try await context.sleep(for: .seconds(1))
///     return .loginOK
/// }
/// ```
///
/// With a `delay`, each effect of the queue starts at least `delay` after the previous one
/// started, measured on the automaton's clock. A negative delay is treated as zero.
public struct EffectQueue: Hashable, Sendable, CustomStringConvertible {
    /// The queue's name.
    public let name: String
    /// How new effects are treated when the queue is full.
    public let policy: EffectPolicy
    /// The least time between the starts of two effects of this queue.
    public let delay: Duration

    /// Creates a queue.
    ///
    /// - Parameters:
    ///   - name: The queue's name.
    ///   - policy: How many effects run at once and what happens to the rest; ``EffectPolicy/runAll`` by default.
    ///   - delay: The least time between two starts; none by default.
    public init(_ name: String, policy: EffectPolicy = .runAll, delay: Duration = .zero) {
        self.name = name
        self.policy = policy
        self.delay = max(.zero, delay)
    }

    /// The queue's name.
    public var description: String { name }
}
