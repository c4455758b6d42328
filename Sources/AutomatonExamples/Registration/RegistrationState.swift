import Automaton

/// The screens of a sign-up and log-in flow (e-mail, Facebook or a Mercari account), one
/// state per screen.
///
/// ```swift
/// let flow = try RegistrationFlow.makeAutomaton()
/// let state = flow.state // .root
/// ```
public enum RegistrationState: String, Hashable, Sendable, CaseIterable {
    /// App start: decides which entry screen to show.
    case root
    /// The entry screen: sign up, log in, or continue with Mercari.
    case registerRoot
    /// Profile form (name, gender, …), prefilled from Facebook, Mercari or the e-mail sign-up.
    case profileRegister
    /// "Start with your Mercari account".
    case startWithMercari
    /// E-mail and password log-in.
    case emailLogin
    /// One-click log-in for users who already have an Atte account.
    case atteLogin
    /// Phone number entry for SMS confirmation.
    case confirmSMS
    /// Entry of the code sent by SMS.
    case passcode
    /// E-mail and password sign-up.
    case emailSignUp
    /// Password reset request.
    case resetPassword
    /// The app's home screen: the flow is done.
    case home
}
