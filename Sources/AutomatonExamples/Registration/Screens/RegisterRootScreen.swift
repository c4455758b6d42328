import Automaton

/// The entry screen: sign up, log in, or continue with Mercari. Needs nothing: `RegisterRootScreen.make()`.
public struct RegisterRootScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Always ``RegistrationState/registerRoot``.
    public var state: RegistrationState { .registerRoot }

    /// Creates the screen.
    public static func make(withDependency dependency: Void) -> Self {
        Self()
    }

    /// The screen's name.
    public var description: String { "RegisterRootScreen" }
}
