import Automaton

/// Phone number confirmation by SMS.
public struct ConfirmSMSScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// What the screen needs.
    public struct Dependency: Hashable, Sendable {
        /// The number to send the code to.
        public var phoneNumber: String

        /// Creates the dependency.
        public init(phoneNumber: String) {
            self.phoneNumber = phoneNumber
        }
    }

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/confirmSMS``.
    public var state: RegistrationState { .confirmSMS }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and what it shows.
    public var description: String { "ConfirmSMSScreen(\(dependency.phoneNumber))" }
}
