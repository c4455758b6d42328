/// Async work an automaton starts on a transition; it may send further inputs back.
///
/// An effect that answers with one input returns it (`.auth` is a queue declared once, as a
/// static member of ``EffectQueue``):
///
/// ```swift
/// let loginOK = Effect<LoginInput>(queue: .auth) { context in
///     try await context.sleep(for: .seconds(1))
///     return .loginOK
/// }
/// ```
///
/// one that sends a sequence over time uses ``run(id:queue:_:)``; ``cancel(_:)`` cancels other
/// effects by id, ``none`` does nothing, and ``merge(_:)`` combines effects. Errors thrown by an
/// effect (including `CancellationError`) end it silently.
public struct Effect<Input: Sendable>: Sendable {
    enum Work: Sendable {
        case run(@Sendable (EffectContext<Input>) async throws -> Void)
        case cancel(Set<EffectID>)
    }

    struct Item: Sendable {
        let id: EffectID?
        let queue: EffectQueue?
        let work: Work
    }

    let items: [Item]

    init(items: [Item]) {
        self.items = items
    }

    /// An effect that sends the input `operation` returns, if any.
    ///
    /// - Parameters:
    ///   - id: An id to cancel the effect by.
    ///   - queue: The queue that decides when it runs; without one it runs at once.
    ///   - operation: The work; return `nil` to send nothing.
    public init(
        id: EffectID? = nil,
        queue: EffectQueue? = nil,
        _ operation: @escaping @Sendable (EffectContext<Input>) async throws -> Input?
    ) {
        let work = Work.run { context in
            if let input = try await operation(context) {
                await context.send(input)
            }
        }
        self.init(items: [Item(id: id, queue: queue, work: work)])
    }

    /// An effect that may send any number of inputs over time through ``EffectContext/send(_:)``.
    public static func run(
        id: EffectID? = nil,
        queue: EffectQueue? = nil,
        _ operation: @escaping @Sendable (EffectContext<Input>) async throws -> Void
    ) -> Self {
        Self(items: [Item(id: id, queue: queue, work: .run(operation))])
    }

    /// An effect that sends `input` right away.
    public static func send(_ input: Input, id: EffectID? = nil, queue: EffectQueue? = nil) -> Self {
        Self(id: id, queue: queue) { _ in input }
    }

    /// An effect that cancels every running or suspended effect with one of `ids`.
    public static func cancel(_ ids: EffectID...) -> Self {
        Self(items: [Item(id: nil, queue: nil, work: .cancel(Set(ids)))])
    }

    /// No effect.
    public static var none: Self { Self(items: []) }

    /// All of `effects`, started in order.
    public static func merge(_ effects: Self...) -> Self {
        Self(items: effects.flatMap(\.items))
    }

    /// Whether this effect does nothing.
    public var isNone: Bool { items.isEmpty }
}
