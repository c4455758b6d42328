/// The left side of a mapping rule, `input | fromState`: which inputs, in which states.
///
/// Built by the `|` operator from an input (or input predicate) and a state (or state
/// predicate, or ``any(_:)``); see ``EffectMapping``.
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
