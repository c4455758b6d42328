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
/// (for example `canForceLogout`).
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

/// The condition `input | .any`: this input, in every state.
public func | <State: Sendable, Input: Equatable & Sendable>(
    input: Input, state: MappingWildcard
) -> MappingCondition<State, Input> {
    MappingCondition(input: { $0 == input }, state: { _ in true })
}

/// The condition `.any | fromState`: every input, in this state.
public func | <State: Equatable & Sendable, Input: Sendable>(
    input: MappingWildcard, state: State
) -> MappingCondition<State, Input> {
    MappingCondition(input: { _ in true }, state: { $0 == state })
}

/// The condition `predicate | .any`: any input the predicate accepts, in every state.
public func | <State: Sendable, Input: Sendable>(
    input: @escaping @Sendable (Input) -> Bool, state: MappingWildcard
) -> MappingCondition<State, Input> {
    MappingCondition(input: input, state: { _ in true })
}

/// The condition `.any | predicate`: every input, in any state the predicate accepts.
public func | <State: Sendable, Input: Sendable>(
    input: MappingWildcard, state: @escaping @Sendable (State) -> Bool
) -> MappingCondition<State, Input> {
    MappingCondition(input: { _ in true }, state: state)
}

/// The condition `.any | .any`: every input, in every state.
public func | <State: Sendable, Input: Sendable>(
    input: MappingWildcard, state: MappingWildcard
) -> MappingCondition<State, Input> {
    MappingCondition(input: { _ in true }, state: { _ in true })
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
