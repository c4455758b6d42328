import Automaton

/// The smallest flow with a transition on every input: two screens and a toggle.
public enum FlipState: Hashable, Sendable { case front, back }

/// The toggle input.
public enum FlipInput: Hashable, Sendable, TransitionEvent { case flip }

/// The table automaton: `FiniteAutomaton.send` over a two-row `TransitionTable`.
public func makeTableAutomaton() throws -> FiniteAutomaton<FlipState, FlipInput> {
    try FiniteAutomaton(
        initial: .front,
        transitions: [
            Transition(from: .front, to: .back, by: .flip),
            Transition(from: .back, to: .front, by: .flip),
        ])
}

/// The effectful automaton with the same transitions and no effects: each `send` is one hop to
/// the actor, the mapping, the state change and the reply.
public func makeEffectAutomaton() -> EffectAutomaton<FlipState, FlipInput> {
    EffectAutomaton(
        state: .front,
        mapping: EffectMapping { state, _ in
            (state == .front ? .back : .front, .none)
        })
}
