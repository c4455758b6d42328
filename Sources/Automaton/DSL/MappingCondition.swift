/// The left side of a mapping rule, `input | fromState`: which inputs, in which states.
///
/// Built by the `|` operator from an input, an input predicate or ``MappingWildcard/any`` on
/// the left, and a state, a state predicate or `.any` on the right; see ``EffectMapping``.
public struct MappingCondition<State: Sendable, Input: Sendable>: Sendable {
    /// Whether the rule applies to an input.
    public let matchesInput: @Sendable (Input) -> Bool
    /// Whether the rule applies in a state.
    public let matchesState: @Sendable (State) -> Bool

    /// Creates a condition from two predicates.
    public init(input: @escaping @Sendable (Input) -> Bool, state: @escaping @Sendable (State) -> Bool) {
        self.matchesInput = input
        self.matchesState = state
    }
}
