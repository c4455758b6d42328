import Automaton

/// The e-mail and password log-in form. Needs nothing: `EmailLoginScreen.make()`.
public struct EmailLoginScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Always ``RegistrationState/emailLogin``.
    public var state: RegistrationState { .emailLogin }

    /// Creates the screen.
    public static func make(withDependency dependency: Void) -> Self {
        Self()
    }

    /// The screen's name.
    public var description: String { "EmailLoginScreen" }
}
