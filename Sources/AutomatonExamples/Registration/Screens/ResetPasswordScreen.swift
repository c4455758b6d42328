import Automaton

/// The password reset form. Needs nothing: `ResetPasswordScreen.make()`.
public struct ResetPasswordScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Always ``RegistrationState/resetPassword``.
    public var state: RegistrationState { .resetPassword }

    /// Creates the screen.
    public static func make(withDependency dependency: Void) -> Self {
        Self()
    }

    /// The screen's name.
    public var description: String { "ResetPasswordScreen" }
}
