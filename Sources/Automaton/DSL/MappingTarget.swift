/// The right side of a mapping rule, `toState | effect`: where to go and what to start.
///
/// Built by the `|` operator; see ``EffectMapping``.
public struct MappingTarget<State: Sendable, Input: Sendable>: Sendable {
    /// The next state.
    public let state: State
    /// The effect to start.
    public let effect: Effect<Input>

    /// Creates a target.
    public init(state: State, effect: Effect<Input>) {
        self.state = state
        self.effect = effect
    }
}
