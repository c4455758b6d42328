/// One edge of a transition table: in state `from`, an event of kind `by` leads to state `to`.
///
/// ```swift
/// let edge = Transition(from: LoginState.loggedOut, to: .loggingIn, by: LoginInput.login)
/// ```
///
/// `Kind` is the payload-free case of the event (see ``TransitionEvent``), so an edge never needs
/// a placeholder payload.
public struct Transition<State: Hashable & Sendable, Kind: Hashable & Sendable>: Hashable, Sendable {
    /// The state the edge leaves.
    public var from: State
    /// The state the edge enters.
    public var to: State
    /// The kind of event that takes the edge.
    public var by: Kind

    /// Creates an edge from `from` to `to`, taken by events of kind `by`.
    public init(from: State, to: State, by: Kind) {
        self.from = from
        self.to = to
        self.by = by
    }
}

extension Transition: CustomStringConvertible {
    /// `from --by--> to`, for messages and logs.
    public var description: String { "\(from) --\(by)--> \(to)" }
}
