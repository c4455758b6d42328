import Automaton

/// "Start with your Mercari account", for the account found on the device.
public struct StartWithMercariScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs.
    public struct Dependency: Hashable, Sendable {
        /// The Mercari account to continue with.
        public var resource: MercariIDResource
        /// The Mercari token.
        public var token: String

        /// Creates the dependency.
        public init(resource: MercariIDResource, token: String) {
            self.resource = resource
            self.token = token
        }
    }

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
