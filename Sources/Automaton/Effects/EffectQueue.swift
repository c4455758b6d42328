/// A named lane for effects, with a policy for how many run at once and an optional spacing
/// between their starts.
///
/// The name is the queue: in an automaton, every effect that names `"auth"` shares one queue, its
/// limit and its spacing. Declare each queue once, as a static member, and use that declaration
/// everywhere:
///
/// ```swift
/// extension EffectQueue {
///     /// Server calls: a new one cancels the one in flight.
///     static let auth = EffectQueue("auth", policy: .newest(1))
/// }
///
/// let loginEffect = Effect<LoginInput>(queue: .auth) { context in
///     try await context.sleep(for: .seconds(1))
///     return .loginOK
/// }
/// ```
///
/// A second declaration of a name that an automaton already uses, with another policy or delay,
/// does not make a second queue: its effect does not run, and the automaton reports
/// ``EffectIssue/conflictingQueue(_:existing:)``. Declarations that behave alike (`.newest(0)`
/// and `.newest(1)`, a negative delay and none) are the same queue.
///
/// With a `delay`, each effect of the queue starts at least `delay` after the previous one
/// started, measured on the automaton's clock. A negative delay is treated as zero.
public struct EffectQueue: Hashable, Sendable, CustomStringConvertible {
    /// The queue's name: what makes two effects share the queue.
    public let name: String
    /// How new effects are treated when the queue is full.
    public let policy: EffectPolicy
    /// The least time between the starts of two effects of this queue.
    public let delay: Duration

    /// Creates a queue.
    ///
    /// - Parameters:
    ///   - name: The queue's name; effects that name it share it.
    ///   - policy: How many effects run at once and what happens to the rest; ``EffectPolicy/runAll`` by default.
    ///   - delay: The least time between two starts; none by default.
    public init(_ name: String, policy: EffectPolicy = .runAll, delay: Duration = .zero) {
        self.name = name
        self.policy = policy
        self.delay = max(.zero, delay)
    }

    /// The queue's name.
    public var description: String { name }

    /// Whether `other` treats effects exactly as this queue does.
    func behavesLike(_ other: EffectQueue) -> Bool {
        policy.normalized == other.policy.normalized && delay == other.delay
    }

    /// The queue as Swift source, for messages.
    var declaration: String {
        let delayArgument = delay > .zero ? ", delay: \(delay)" : ""
        return "EffectQueue(\"\(name)\", policy: \(policy.declaration)\(delayArgument))"
    }
}
