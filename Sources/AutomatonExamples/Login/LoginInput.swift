import Automaton

/// The inputs of the login flow: what the user does and what the server answers.
///
/// Without payloads, each input is its own ``TransitionEvent/Kind``.
public enum LoginInput: String, Hashable, Sendable, CaseIterable, TransitionEvent {
    /// The user asks to log in.
    case login
    /// The server accepted the login.
    case loginOK
    /// The user asks to log out.
    case logout
    /// The server finished the logout.
    case logoutOK
    /// The session must end now, whether logging in or logged in.
    case forceLogout
}
