/// Binds `=>` looser than `|`, so `input | from => to | effect` reads as two pairs.
precedencegroup MappingArrowPrecedence {
    associativity: none
    higherThan: AssignmentPrecedence
    lowerThan: TernaryPrecedence
}

/// Joins a ``MappingCondition`` to its target state (and effect) in an ``EffectMapping``.
infix operator => : MappingArrowPrecedence

/// The condition `input | fromState`: this input, in this state.
public func | <State: Equatable & Sendable, Input: Equatable & Sendable>(
    input: Input, state: State
) -> MappingCondition<State, Input> {
    MappingCondition(input: { $0 == input }, state: { $0 == state })
}

/// The condition `input | predicate`: this input, in any state the predicate accepts
/// (for example `canForceLogout`, or ``any(_:)``).
public func | <State: Sendable, Input: Equatable & Sendable>(
    input: Input, state: @escaping @Sendable (State) -> Bool
) -> MappingCondition<State, Input> {
    MappingCondition(input: { $0 == input }, state: state)
}

/// The condition `predicate | fromState`: any input the predicate accepts, in this state.
public func | <State: Equatable & Sendable, Input: Sendable>(
    input: @escaping @Sendable (Input) -> Bool, state: State
) -> MappingCondition<State, Input> {
    MappingCondition(input: input, state: { $0 == state })
}

/// The condition `predicate | predicate`.
public func | <State: Sendable, Input: Sendable>(
    input: @escaping @Sendable (Input) -> Bool, state: @escaping @Sendable (State) -> Bool
) -> MappingCondition<State, Input> {
    MappingCondition(input: input, state: state)
}

/// The target `toState | effect`.
public func | <State: Sendable, Input: Sendable>(state: State, effect: Effect<Input>) -> MappingTarget<State, Input> {
    MappingTarget(state: state, effect: effect)
}

/// The rule `condition => toState | effect`.
public func => <State: Sendable, Input: Sendable>(
    condition: MappingCondition<State, Input>, target: MappingTarget<State, Input>
) -> EffectMapping<State, Input> {
    EffectMapping { state, input in
        condition.matchesInput(input) && condition.matchesState(state) ? (target.state, target.effect) : nil
    }
}

/// The rule `condition => toState`, with no effect.
public func => <State: Sendable, Input: Sendable>(
    condition: MappingCondition<State, Input>, state: State
) -> EffectMapping<State, Input> {
    condition => MappingTarget(state: state, effect: .none)
}

/// A wildcard for either side of a condition: matches every input, or every state.
///
/// ```swift
/// .reset | any => .idle          // in any state
/// any | .closed => .closed       // ignore every input while closed
/// ```
public func any<Value>(_ value: Value) -> Bool {
    true
}
