import Automaton

/// What the user (or the server) does in the registration flow.
///
/// Each case carries exactly what the next screen needs — no optional payloads, no placeholder
/// values. The transition table routes by ``Kind``, so one edge covers every payload:
///
/// ```swift
/// let edge = Transition<RegistrationState, RegistrationEvent.Kind>(
///     from: .registerRoot, to: .profileRegister, by: .registerWithFacebook)  // one edge of the table
/// flow.send(.registerWithFacebook(profile: FacebookProfile(id: "42", name: "Minh")))  // takes it
/// ```
public enum RegistrationEvent: Hashable, Sendable, TransitionEvent {
    /// Show the entry screen.
    case showRegisterRoot
    /// Sign up with a Facebook account.
    case registerWithFacebook(profile: FacebookProfile)
    /// Continue with a Mercari account found on the device.
    case startWithMercari(resource: MercariIDResource, token: String)
    /// Register the Mercari account as an Atte account.
    case registerWithMercariResource(resource: MercariIDResource)
    /// Log in with e-mail and password.
    case loginWithEmail
    /// One-click log-in with an existing Atte account.
    case loginWithAtte(resource: MercariIDResource, token: String)
    /// Sign up with e-mail and password.
    case registerWithEmail
    /// Continue to the profile form after the e-mail sign-up.
    case showProfileRegister(email: String)
    /// Confirm the given phone number by SMS.
    case confirmSMS(phoneNumber: String)
    /// The confirmation code was sent to the phone number.
    case sendSMSConfirmationNumber(phoneNumber: String)
    /// Ask for a password reset.
    case resetPassword
    /// The reset mail was sent; back to the log-in form.
    case finishPasswordReset
    /// Logged in: show home.
    case loginAndShowHome(token: String, userID: Int64)

    /// The case of a ``RegistrationEvent`` without its payload.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// ``RegistrationEvent/showRegisterRoot``.
        case showRegisterRoot
        /// ``RegistrationEvent/registerWithFacebook(profile:)``.
        case registerWithFacebook
        /// ``RegistrationEvent/startWithMercari(resource:token:)``.
        case startWithMercari
        /// ``RegistrationEvent/registerWithMercariResource(resource:)``.
        case registerWithMercariResource
        /// ``RegistrationEvent/loginWithEmail``.
        case loginWithEmail
        /// ``RegistrationEvent/loginWithAtte(resource:token:)``.
        case loginWithAtte
        /// ``RegistrationEvent/registerWithEmail``.
        case registerWithEmail
        /// ``RegistrationEvent/showProfileRegister(email:)``.
        case showProfileRegister
        /// ``RegistrationEvent/confirmSMS(phoneNumber:)``.
        case confirmSMS
        /// ``RegistrationEvent/sendSMSConfirmationNumber(phoneNumber:)``.
        case sendSMSConfirmationNumber
        /// ``RegistrationEvent/resetPassword``.
        case resetPassword
        /// ``RegistrationEvent/finishPasswordReset``.
        case finishPasswordReset
        /// ``RegistrationEvent/loginAndShowHome(token:userID:)``.
        case loginAndShowHome
    }

    /// The case of this event, without its payload.
    public var kind: Kind {
        switch self {
        case .showRegisterRoot: .showRegisterRoot
        case .registerWithFacebook: .registerWithFacebook
        case .startWithMercari: .startWithMercari
        case .registerWithMercariResource: .registerWithMercariResource
        case .loginWithEmail: .loginWithEmail
        case .loginWithAtte: .loginWithAtte
        case .registerWithEmail: .registerWithEmail
        case .showProfileRegister: .showProfileRegister
        case .confirmSMS: .confirmSMS
        case .sendSMSConfirmationNumber: .sendSMSConfirmationNumber
        case .resetPassword: .resetPassword
        case .finishPasswordReset: .finishPasswordReset
        case .loginAndShowHome: .loginAndShowHome
        }
    }
}

extension RegistrationEvent: CustomStringConvertible {
    /// The case name and its payload, e.g. `confirmSMS(phoneNumber: "090-1234-5678")`.
    public var description: String {
        switch self {
        case .showRegisterRoot, .loginWithEmail, .registerWithEmail, .resetPassword, .finishPasswordReset:
            kind.rawValue
        case let .registerWithFacebook(profile):
            "registerWithFacebook(profile: \(profile.name))"
        case let .startWithMercari(resource, _):
            "startWithMercari(resource: \(resource.nickname))"
        case let .registerWithMercariResource(resource):
            "registerWithMercariResource(resource: \(resource.nickname))"
        case let .loginWithAtte(resource, _):
            "loginWithAtte(resource: \(resource.nickname))"
        case let .showProfileRegister(email):
            "showProfileRegister(email: \(email))"
        case let .confirmSMS(phoneNumber):
            "confirmSMS(phoneNumber: \(phoneNumber))"
        case let .sendSMSConfirmationNumber(phoneNumber):
            "sendSMSConfirmationNumber(phoneNumber: \(phoneNumber))"
        case let .loginAndShowHome(_, userID):
            "loginAndShowHome(userID: \(userID))"
        }
    }
}
