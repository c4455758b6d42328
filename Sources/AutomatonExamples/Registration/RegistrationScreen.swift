import Automaton

/// A screen of the registration flow, as the flow's output: built with exactly what it needs.
///
/// ```swift
/// let reply = flow.send(.confirmSMS(phoneNumber: "090-1234-5678"))
/// if case .success(let event, _, _) = reply {
///     show(RegistrationFlow.screen(for: event)) // ConfirmSMSScreen for 090-1234-5678
/// }
/// ```
public protocol RegistrationScreen: Sendable, CustomStringConvertible {
    /// The state this screen shows.
    var state: RegistrationState { get }
}
