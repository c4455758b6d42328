import Automaton

/// The e-mail and password sign-up form. Needs nothing: `EmailSignUpScreen.make()`.
public struct EmailSignUpScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Always ``RegistrationState/emailSignUp``.
    public var state: RegistrationState { .emailSignUp }

    /// Creates the screen.
    public static func make(withDependency dependency: Void) -> Self {
        Self()
    }

    /// The screen's name.
    public var description: String { "EmailSignUpScreen" }
}
