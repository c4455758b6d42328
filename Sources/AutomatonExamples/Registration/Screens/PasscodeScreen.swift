import Automaton

/// Entry of the code sent by SMS.
public struct PasscodeScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs.
    public struct Dependency: Hashable, Sendable {
        /// The number the code was sent to.
        public var phoneNumber: String

        /// Creates the dependency.
        public init(phoneNumber: String) {
            self.phoneNumber = phoneNumber
        }
    }

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/passcode``.
    public var state: RegistrationState { .passcode }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and what it shows.
    public var description: String { "PasscodeScreen(\(dependency.phoneNumber))" }
}
