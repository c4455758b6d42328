/// A Mealy machine whose transition is a ``StateMonad``: each input becomes a stateful
/// computation that yields the next state and an output.
///
/// A monadic automaton (`A -> State[S, B]`), with one change from the textbook form: an input the
/// current state does not accept is an explicit rejection — the computation yields `nil`, the
/// machine keeps its state and no output is built — instead of a catch-all `.any` state.
///
/// ```swift
/// let machine = MealyMachine<LoginState, LoginInput, String>(initial: .loggedOut) { input in
///     switch input {
///     case .login:
///         .accepting({ $0 == .loggedOut ? .loggingIn : nil }, output: { _, _ in "Logging in…" })
///     default:
///         .rejecting()
///     }
/// }
/// var flow = machine
/// let first = flow.send(.login).output    // "Logging in…"
/// let second = flow.send(.login).output   // nil: rejected in .loggingIn
/// ```
///
/// Outputs can be anything, including the next screen built with
/// ``DependencyInjectable/make(withDependency:)`` from the input's payload.
public struct MealyMachine<State: Sendable, Input: Sendable, Output>: Sendable {
    /// The machine's transition function: input to stateful computation.
    public let transition: @Sendable (Input) -> StateMonad<State, Output?>
    /// The state the machine started in.
    public let initial: State
    /// The current state.
    public private(set) var state: State

    /// Creates a machine in state `initial` with the given transition function.
    ///
    /// - Parameters:
    ///   - initial: The state the machine starts in, and returns to on ``reset()``.
    ///   - transition: For each input, a computation that yields the next state and the
    ///     output, or `nil` (with any state, which is ignored) to reject the input.
    public init(initial: State, transition: @escaping @Sendable (Input) -> StateMonad<State, Output?>) {
        self.transition = transition
        self.initial = initial
        self.state = initial
    }

    /// Runs `input` from `state` without changing the machine: the next state and the output,
    /// or `nil` if the input is rejected.
    public func transition(from state: State, by input: Input) -> (state: State, output: Output)? {
        let (next, output) = transition(input).run(state)
        guard let output else { return nil }
        return (next, output)
    }

    /// Sends `input`: moves and returns the output, or rejects and keeps the state.
    @discardableResult
    public mutating func send(_ input: Input) -> MealyReply<State, Input, Output> {
        guard let (next, output) = transition(from: state, by: input) else {
            return .rejected(input: input, from: state)
        }
        let from = state
        state = next
        return .accepted(input: input, from: from, to: next, output: output)
    }

    /// Sends `inputs` in order, stopping at the first rejection; returns every reply.
    @discardableResult
    public mutating func replay(_ inputs: some Sequence<Input>) -> [MealyReply<State, Input, Output>] {
        var replies: [MealyReply<State, Input, Output>] = []
        for input in inputs {
            let reply = send(input)
            replies.append(reply)
            if case .rejected = reply { break }
        }
        return replies
    }

    /// Returns to the initial state.
    public mutating func reset() {
        state = initial
    }
}
