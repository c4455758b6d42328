import Automaton

extension LoginFlow {
    /// The flow's edges without effects: what ``mappings(loginDuration:logoutDuration:)`` does,
    /// as a table to replay, analyse and draw.
    public static let transitions: [Transition<LoginState, LoginInput>] = [
        Transition(from: .loggedOut, to: .loggingIn, by: .login),
        Transition(from: .loggingIn, to: .loggedIn, by: .loginOK),
        Transition(from: .loggedIn, to: .loggingOut, by: .logout),
        Transition(from: .loggingOut, to: .loggedOut, by: .logoutOK),
        Transition(from: .loggingIn, to: .loggingOut, by: .forceLogout),
        Transition(from: .loggedIn, to: .loggingOut, by: .forceLogout),
    ]

    /// Named input sequences, replayable through ``transitions`` from ``LoginState/loggedOut``.
    ///
    /// - `full-cycle`: log in, logged in, log out, logged out.
    /// - `force-logout`: log in, forced out while logging in, logged out.
    public static let routes: [String: [LoginInput]] = [
        "full-cycle": [.login, .loginOK, .logout, .logoutOK],
        "force-logout": [.login, .forceLogout, .logoutOK],
    ]

    /// The flow's transition table.
    public static func makeTable() throws(TransitionTableError<LoginState, LoginInput>) -> TransitionTable<LoginState, LoginInput>
    {
        try TransitionTable(transitions)
    }

    /// The flow as a Mermaid state diagram starting at ``LoginState/loggedOut``.
    public static func mermaid() throws(TransitionTableError<LoginState, LoginInput>) -> String {
        try makeTable().mermaid(initial: .loggedOut)
    }
}
