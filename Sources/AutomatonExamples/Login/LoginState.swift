import Automaton

/// The states of the login flow.
public enum LoginState: String, Hashable, Sendable, CaseIterable {
    /// Nobody is logged in.
    case loggedOut
    /// A login request is in flight.
    case loggingIn
    /// The user is logged in.
    case loggedIn
    /// A logout (or forced logout) is in flight.
    case loggingOut
}
