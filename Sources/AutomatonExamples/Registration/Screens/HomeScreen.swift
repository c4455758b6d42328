import Automaton

/// The home screen of a logged-in user.
public struct HomeScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs.
    public struct Dependency: Hashable, Sendable {
        /// The Atte session token.
        public var token: String
        /// The logged-in user.
        public var userID: Int64

        /// Creates the dependency.
        public init(token: String, userID: Int64) {
            self.token = token
            self.userID = userID
        }
    }

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/home``.
    public var state: RegistrationState { .home }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and what it shows.
    public var description: String { "HomeScreen(user \(dependency.userID))" }
}
