/// A finite automaton with a current state, driven by a ``TransitionTable``.
///
/// It starts in its initial state; ``send(_:)`` moves it along the table and says what
/// happened. An input the table does not define in the current state is a failure reply and
/// leaves the state alone:
///
/// ```swift
/// var flow = try FiniteAutomaton<RegistrationState, RegistrationEvent>(
///     initial: .root, transitions: RegistrationFlow.transitions)
/// flow.send(.showRegisterRoot)               // .success(input: .showRegisterRoot, from: .root, to: .registerRoot)
/// flow.send(.confirmSMS(phoneNumber: "090"))  // .failure: not defined in .registerRoot
/// let state = flow.state                      // .registerRoot
/// ```
///
/// It is a value: copy it to branch a flow, or keep it in whatever owns the flow's state.
public struct FiniteAutomaton<State: Hashable & Sendable, Event: TransitionEvent>: Sendable {
    /// The table the automaton follows.
    public let table: TransitionTable<State, Event>
    /// The state the automaton started in; ``reset()`` returns to it.
    public let initial: State
    /// The current state.
    public private(set) var state: State

    /// Creates an automaton in state `initial` following `table`.
    public init(initial: State, table: TransitionTable<State, Event>) {
        self.table = table
        self.initial = initial
        self.state = initial
    }

    /// Creates an automaton in state `initial` following a table built from `transitions`.
    ///
    /// - Throws: ``TransitionTableError`` when two edges leave the same state by the same event.
    public init(initial: State, transitions: [Transition<State, Event.Kind>]) throws(TransitionTableError<State, Event.Kind>) {
        self.init(initial: initial, table: try TransitionTable(transitions))
    }

    /// The state `event` leads to from `state`, without changing the automaton.
    public func transition(from state: State, by event: Event) -> State? {
        table.transition(from: state, by: event)
    }

    /// Sends `event`: moves to the next state and returns a success reply, or returns a failure
    /// reply and keeps the state.
    @discardableResult
    public mutating func send(_ event: Event) -> TransitionReply<State, Event> {
        let reply = table.reply(to: event, in: state)
        if let next = reply.to { state = next }
        return reply
    }

    /// Sends `events` in order, stopping at the first one that is rejected.
    @discardableResult
    public mutating func replay(_ events: some Sequence<Event>) -> Replay<State, Event> {
        let replay = table.replay(events, from: state)
        state = replay.state
        return replay
    }

    /// Returns to the initial state.
    public mutating func reset() {
        state = initial
    }
}
