import Automaton

/// A sign-up and log-in flow, as data: its edges, named routes
/// through it, and the screen each event leads to.
///
/// Test a route without any UI, by replaying it on the flow's table:
///
/// ```swift
/// let table = try RegistrationFlow.makeTable()
/// let replay = table.replay(RegistrationFlow.routes["email-sign-up"] ?? [], from: RegistrationFlow.initialState)
/// #expect(replay.state == .home)
/// ```
///
/// or drive it as a Mealy machine whose output is the next screen:
///
/// ```swift
/// var machine = try RegistrationFlow.makeMealyMachine()
/// let screen = machine.send(.showRegisterRoot).output // RegisterRootScreen
/// ```
///
/// Print its diagram with ``mermaid()``.
public enum RegistrationFlow {
    /// Where the flow starts.
    public static let initialState = RegistrationState.root

    /// Where the flow ends.
    public static let finalStates: Set<RegistrationState> = [.home]

    /// Every edge of the flow, in the order the diagram lists them.
    public static let transitions: [Transition<RegistrationState, RegistrationEvent.Kind>] = [
        Transition(from: .root, to: .registerRoot, by: .showRegisterRoot),
        Transition(from: .registerRoot, to: .profileRegister, by: .registerWithFacebook),
        Transition(from: .registerRoot, to: .startWithMercari, by: .startWithMercari),
        Transition(from: .registerRoot, to: .emailLogin, by: .loginWithEmail),
        Transition(from: .registerRoot, to: .atteLogin, by: .loginWithAtte),
        Transition(from: .registerRoot, to: .emailSignUp, by: .registerWithEmail),
        Transition(from: .registerRoot, to: .home, by: .loginAndShowHome),
        Transition(from: .startWithMercari, to: .profileRegister, by: .registerWithMercariResource),
        Transition(from: .startWithMercari, to: .atteLogin, by: .loginWithAtte),
        Transition(from: .emailSignUp, to: .profileRegister, by: .showProfileRegister),
        Transition(from: .emailSignUp, to: .profileRegister, by: .registerWithFacebook),
        Transition(from: .emailLogin, to: .profileRegister, by: .registerWithFacebook),
        Transition(from: .emailLogin, to: .startWithMercari, by: .startWithMercari),
        Transition(from: .emailLogin, to: .atteLogin, by: .loginWithAtte),
        Transition(from: .emailLogin, to: .resetPassword, by: .resetPassword),
        Transition(from: .emailLogin, to: .home, by: .loginAndShowHome),
        Transition(from: .resetPassword, to: .emailLogin, by: .finishPasswordReset),
        Transition(from: .profileRegister, to: .confirmSMS, by: .confirmSMS),
        Transition(from: .confirmSMS, to: .passcode, by: .sendSMSConfirmationNumber),
        Transition(from: .confirmSMS, to: .home, by: .loginAndShowHome),
        Transition(from: .passcode, to: .home, by: .loginAndShowHome),
        Transition(from: .atteLogin, to: .home, by: .loginAndShowHome),
    ]

    /// Named routes through the flow, each ending at ``RegistrationState/home``: the flow's test
    /// scenarios, with sample payloads.
    ///
    /// - `email-sign-up`: e-mail sign-up, profile, SMS confirmation, home.
    /// - `mercari-sms`: Mercari account without SMS confirmation registers with Atte.
    /// - `facebook`: Facebook sign-up, profile, SMS code, home.
    /// - `email-login`: e-mail log-in straight to home.
    /// - `reset-password`: forgotten password, reset, log-in, home.
    /// - `atte-one-click`: one-click log-in of an Atte user.
    /// - `returning-user`: a valid session goes straight home.
    public static let routes: [String: [RegistrationEvent]] = [
        "email-sign-up": [
            .showRegisterRoot,
            .registerWithEmail,
            .showProfileRegister(email: Sample.email),
            .confirmSMS(phoneNumber: Sample.phoneNumber),
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "mercari-sms": [
            .showRegisterRoot,
            .startWithMercari(resource: Sample.mercari, token: Sample.token),
            .registerWithMercariResource(resource: Sample.mercari),
            .confirmSMS(phoneNumber: Sample.phoneNumber),
            .sendSMSConfirmationNumber(phoneNumber: Sample.phoneNumber),
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "facebook": [
            .showRegisterRoot,
            .registerWithFacebook(profile: Sample.facebook),
            .confirmSMS(phoneNumber: Sample.phoneNumber),
            .sendSMSConfirmationNumber(phoneNumber: Sample.phoneNumber),
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "email-login": [
            .showRegisterRoot,
            .loginWithEmail,
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "reset-password": [
            .showRegisterRoot,
            .loginWithEmail,
            .resetPassword,
            .finishPasswordReset,
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "atte-one-click": [
            .showRegisterRoot,
            .loginWithAtte(resource: Sample.mercari, token: Sample.token),
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
        "returning-user": [
            .showRegisterRoot,
            .loginAndShowHome(token: Sample.token, userID: Sample.userID),
        ],
    ]

    /// The names of ``routes``, sorted.
    public static var routeNames: [String] { routes.keys.sorted() }

    /// The flow's transition table.
    ///
    /// - Throws: ``TransitionTableError`` if ``transitions`` lists a (state, event) pair twice;
    ///   a test makes sure it does not.
    public static func makeTable() throws(TransitionTableError<RegistrationState, RegistrationEvent.Kind>)
        -> TransitionTable<RegistrationState, RegistrationEvent>
    {
        try TransitionTable(transitions)
    }

    /// A finite automaton at ``initialState`` following ``transitions``.
    public static func makeAutomaton() throws(TransitionTableError<RegistrationState, RegistrationEvent.Kind>)
        -> FiniteAutomaton<RegistrationState, RegistrationEvent>
    {
        FiniteAutomaton(initial: initialState, table: try makeTable())
    }

    /// A Mealy machine at ``initialState`` whose output is the next screen, built from the
    /// event's payload only when the table accepts the event.
    public static func makeMealyMachine() throws(TransitionTableError<RegistrationState, RegistrationEvent.Kind>)
        -> MealyMachine<RegistrationState, RegistrationEvent, any RegistrationScreen>
    {
        let table = try makeTable()
        return MealyMachine(initial: initialState) { event in
            .accepting({ state in table.transition(from: state, by: event) }, output: { _, _ in screen(for: event) })
        }
    }

    /// The screen shown at ``initialState``.
    public static var initialScreen: any RegistrationScreen { RootScreen.make() }

    /// The screen `event` leads to, built from the event's payload.
    ///
    /// Each kind of event enters exactly one state, so the screen follows from the event alone;
    /// whether the event is allowed is the table's business.
    public static func screen(for event: RegistrationEvent) -> any RegistrationScreen {
        switch event {
        case .showRegisterRoot:
            RegisterRootScreen.make()
        case let .registerWithFacebook(profile):
            ProfileRegisterScreen.make(withDependency: .facebook(profile))
        case let .startWithMercari(resource, token):
            StartWithMercariScreen.make(withDependency: .init(resource: resource, token: token))
        case let .registerWithMercariResource(resource):
            ProfileRegisterScreen.make(withDependency: .mercari(resource))
        case .loginWithEmail, .finishPasswordReset:
            EmailLoginScreen.make()
        case let .loginWithAtte(resource, token):
            AtteLoginScreen.make(withDependency: .init(resource: resource, token: token))
        case .registerWithEmail:
            EmailSignUpScreen.make()
        case let .showProfileRegister(email):
            ProfileRegisterScreen.make(withDependency: .email(email))
        case let .confirmSMS(phoneNumber):
            ConfirmSMSScreen.make(withDependency: .init(phoneNumber: phoneNumber))
        case let .sendSMSConfirmationNumber(phoneNumber):
            PasscodeScreen.make(withDependency: .init(phoneNumber: phoneNumber))
        case .resetPassword:
            ResetPasswordScreen.make()
        case let .loginAndShowHome(token, userID):
            HomeScreen.make(withDependency: .init(token: token, userID: userID))
        }
    }

    /// The flow as a Mermaid state diagram, with its start and end.
    public static func mermaid() throws(TransitionTableError<RegistrationState, RegistrationEvent.Kind>) -> String {
        try makeTable().mermaid(initial: initialState, finalStates: [.home])
    }

    /// Sample payloads for the named routes.
    enum Sample {
        static let email = "minh@example.com"
        static let phoneNumber = "090-1234-5678"
        static let token = "sample-token"
        static let userID: Int64 = 42
        static let facebook = FacebookProfile(id: "fb-1001", name: "Minh")
        static let mercari = MercariIDResource(userID: 7, nickname: "orakaro")
    }
}
