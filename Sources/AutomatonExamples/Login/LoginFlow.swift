import Automaton

/// A login flow as an ``EffectAutomaton``: logging in and out take time on the server,
/// and the server's answer (`loginOK`, `logoutOK`) is an input the effect sends by itself.
///
/// ```swift
/// let clock = ManualClock()
/// let automaton = LoginFlow.makeAutomaton(clock: clock)
/// let login = await automaton.send(.login)            // .loggingIn
/// try await clock.waitForSleepers(1)                   // the login effect waits for the server
/// await clock.advance(by: LoginFlow.defaultLoginDuration)
/// await login.wait(includingFollowUps: true)
/// let state = await automaton.state                    // .loggedIn
/// ```
///
/// All server calls share ``authQueue`` (newest one wins), so `forceLogout` while logging in
/// cancels the pending login: its `loginOK` never arrives, and `loginOK` and `logout` sent by
/// hand are rejected until the forced logout's `logoutOK`.
public enum LoginFlow {
    /// The queue of server calls: a new call cancels the one in flight.
    public static let authQueue = EffectQueue("auth", policy: .newest(1))

    /// How long the sample server takes to log in.
    public static let defaultLoginDuration: Duration = .seconds(1)

    /// How long the sample server takes to log out.
    public static let defaultLogoutDuration: Duration = .seconds(1)

    /// The states a forced logout is allowed in: logging in or logged in.
    public static let canForceLogout: @Sendable (LoginState) -> Bool = { state in
        state == .loggingIn || state == .loggedIn
    }

    /// The flow's rules in the `|` / `=>` notation.
    ///
    /// - Parameters:
    ///   - loginDuration: Time from `login` to the effect's `loginOK`.
    ///   - logoutDuration: Time from `logout` or `forceLogout` to the effect's `logoutOK`.
    public static func mappings(
        loginDuration: Duration = defaultLoginDuration,
        logoutDuration: Duration = defaultLogoutDuration
    ) -> [EffectMapping<LoginState, LoginInput>] {
        let loginOK = reply(.loginOK, after: loginDuration)
        let logoutOK = reply(.logoutOK, after: logoutDuration)
        // The table's columns are aligned by hand: the formatter leaves it alone.
        // swift-format-ignore
        return [
            /*  input      | from state     => to state   | effect   */
            .login       | .loggedOut     => .loggingIn  | loginOK,
            .loginOK     | .loggingIn     => .loggedIn   | .none,
            .logout      | .loggedIn      => .loggingOut | logoutOK,
            .logoutOK    | .loggingOut    => .loggedOut  | .none,
            .forceLogout | canForceLogout => .loggingOut | logoutOK,
        ]
    }

    /// An automaton for the flow, in `state`, taking time from `clock`.
    public static func makeAutomaton(
        state: LoginState = .loggedOut,
        clock: any Clock<Duration> = ContinuousClock(),
        loginDuration: Duration = defaultLoginDuration,
        logoutDuration: Duration = defaultLogoutDuration
    ) -> EffectAutomaton<LoginState, LoginInput> {
        EffectAutomaton(
            state: state,
            clock: clock,
            mappings: mappings(loginDuration: loginDuration, logoutDuration: logoutDuration)
        )
    }

    /// A server call in ``authQueue`` that answers `input` after `duration`.
    static func reply(_ input: LoginInput, after duration: Duration) -> Effect<LoginInput> {
        Effect(queue: authQueue) { context in
            try await context.sleep(for: duration)
            return input
        }
    }
}
