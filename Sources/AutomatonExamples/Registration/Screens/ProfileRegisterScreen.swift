import Automaton

/// The profile form, prefilled from wherever the user came from.
public struct ProfileRegisterScreen: RegistrationScreen, DependencyInjectable, Hashable {
    /// Where the profile data comes from: exactly one source, never a set of optionals.
    public enum Dependency: Hashable, Sendable {
        /// Prefilled from Facebook.
        case facebook(FacebookProfile)
        /// Prefilled from the Mercari account.
        case mercari(MercariIDResource)
        /// After the e-mail sign-up, with the address used.
        case email(String)
    }

    /// What the screen was built with.
    public let dependency: Dependency

    /// Always ``RegistrationState/profileRegister``.
    public var state: RegistrationState { .profileRegister }

    /// Creates the screen from its dependency.
    public static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }

    /// The screen's name and its source.
    public var description: String {
        switch dependency {
        case let .facebook(profile): "ProfileRegisterScreen(Facebook: \(profile.name))"
        case let .mercari(resource): "ProfileRegisterScreen(Mercari: \(resource.nickname))"
        case let .email(email): "ProfileRegisterScreen(e-mail: \(email))"
        }
    }
}
