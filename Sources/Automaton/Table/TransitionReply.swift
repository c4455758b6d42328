/// What happened to one input: it moved the automaton from one state to another, or it was
/// rejected and the state stayed as it was.
///
/// ```swift
/// var machine = try FiniteAutomaton<LoginState, LoginInput>(initial: .loggedOut, transitions: LoginFlow.transitions)
/// switch machine.send(.login) {
/// case let .success(input, from, to): print("\(input): \(from) → \(to)")
/// case let .failure(input, from): print("\(input) is not allowed in \(from)")
/// }
/// ```
///
/// The reply carries the whole input, payload included, so whoever builds the next screen gets
/// the data the event brought.
public enum TransitionReply<State: Sendable, Input: Sendable>: Sendable {
    /// The input was accepted and moved the automaton from `from` to `to`.
    case success(input: Input, from: State, to: State)
    /// The input is not defined in state `from`; the state is unchanged.
    case failure(input: Input, from: State)

    /// The input this reply is about.
    public var input: Input {
        switch self {
        case let .success(input, _, _), let .failure(input, _): input
        }
    }

    /// The state the input was sent in.
    public var from: State {
        switch self {
        case let .success(_, from, _), let .failure(_, from): from
        }
    }

    /// The state after the input, or `nil` when the input was rejected.
    public var to: State? {
        switch self {
        case let .success(_, _, to): to
        case .failure: nil
        }
    }

    /// Whether the input was accepted.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

extension TransitionReply: Equatable where State: Equatable, Input: Equatable {}
extension TransitionReply: Hashable where State: Hashable, Input: Hashable {}

extension TransitionReply: CustomStringConvertible {
    /// `input: from → to`, or `input: rejected in from`.
    public var description: String {
        switch self {
        case let .success(input, from, to): "\(input): \(from) → \(to)"
        case let .failure(input, from): "\(input): rejected in \(from)"
        }
    }
}
