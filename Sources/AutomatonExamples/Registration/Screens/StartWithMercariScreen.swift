import Automaton

/// "Start with your Mercari account", for the account found on the device.
public struct StartWithMercariScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs: the account and its token.
    public typealias Dependency = MercariAccountDependency

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/startWithMercari``.
    public var state: RegistrationState { .startWithMercari }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and what it shows.
    public var description: String { "StartWithMercariScreen(\(dependency.resource.nickname))" }
}
