/// A transition table: which state each kind of event leads to, from each state.
///
/// Build it from a list of ``Transition``s, one per edge of the flow. Events are routed by their
/// case (``TransitionEvent/kind``), never by their payload, and a (state, event) pair listed twice
/// is an error rather than a silent overwrite:
///
/// ```swift
/// let table = try TransitionTable<LoginState, LoginInput>([
///     Transition(from: .loggedOut, to: .loggingIn, by: .login),
///     Transition(from: .loggingIn, to: .loggedIn, by: .loginOK),
/// ])
/// let next = table.transition(from: .loggedOut, by: .login)       // .loggingIn
/// let undefined = table.transition(from: .loggedOut, by: .loginOK) // nil: not defined
/// ```
///
/// The table is a value with no current state; ``FiniteAutomaton`` adds one. The table also
/// answers questions about the flow: ``shortestPath(from:to:)``, ``replay(_:from:)``,
/// ``analysis(initial:finalStates:states:kinds:)``, ``mermaid(initial:finalStates:)`` and
/// ``dot(name:initial:finalStates:)``.
public struct TransitionTable<State: Hashable & Sendable, Event: TransitionEvent>: Sendable {
    /// The edges, in the order they were given.
    public let transitions: [Transition<State, Event.Kind>]

    private let routes: [State: [Event.Kind: State]]

    /// Builds a table from its edges.
    ///
    /// - Throws: ``TransitionTableError/duplicateTransition(first:duplicate:)`` when two edges
    ///   leave the same state by the same kind of event.
    public init(_ transitions: [Transition<State, Event.Kind>]) throws(TransitionTableError<State, Event.Kind>) {
        var routes: [State: [Event.Kind: State]] = [:]
        for transition in transitions {
            if let existing = routes[transition.from]?[transition.by] {
                let first = Transition(from: transition.from, to: existing, by: transition.by)
                throw .duplicateTransition(first: first, duplicate: transition)
            }
            routes[transition.from, default: [:]][transition.by] = transition.to
        }
        self.transitions = transitions
        self.routes = routes
    }

    /// The state that `event` leads to from `state`, or `nil` if the table has no such edge.
    public func transition(from state: State, by event: Event) -> State? {
        transition(from: state, byKind: event.kind)
    }

    /// The state that an event of kind `kind` leads to from `state`, or `nil`.
    public func transition(from state: State, byKind kind: Event.Kind) -> State? {
        routes[state]?[kind]
    }

    /// The reply for sending `event` in `state`: where it leads, or a failure.
    public func reply(to event: Event, in state: State) -> TransitionReply<State, Event> {
        if let next = transition(from: state, by: event) {
            return .success(input: event, from: state, to: next)
        }
        return .failure(input: event, from: state)
    }

    /// Every state the table mentions, in order of first appearance (`from` before `to`).
    public var states: [State] {
        var seen = Set<State>()
        var ordered: [State] = []
        for transition in transitions {
            for state in [transition.from, transition.to] where seen.insert(state).inserted {
                ordered.append(state)
            }
        }
        return ordered
    }

    /// The edges that leave `state`, in table order.
    public func transitions(from state: State) -> [Transition<State, Event.Kind>] {
        transitions.filter { $0.from == state }
    }
}
