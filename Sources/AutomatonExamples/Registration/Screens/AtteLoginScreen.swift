import Automaton

/// One-click log-in with the Atte account linked to the Mercari account.
public struct AtteLoginScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs: the account and its token.
    public typealias Dependency = MercariAccountDependency

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/atteLogin``.
    public var state: RegistrationState { .atteLogin }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and what it shows.
    public var description: String { "AtteLoginScreen(\(dependency.resource.nickname))" }
}
