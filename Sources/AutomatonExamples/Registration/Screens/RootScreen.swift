import Automaton

/// The screen shown at app start. Needs nothing: `RootScreen.make()`.
public struct RootScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Always ``RegistrationState/root``.
    public var state: RegistrationState { .root }

    /// Creates the screen.
    public static func make(withDependency dependency: Void) -> Self {
        Self()
    }

    /// The screen's name.
    public var description: String { "RootScreen" }
}
