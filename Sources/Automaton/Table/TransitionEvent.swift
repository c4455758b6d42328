/// An input whose *case* decides the transition, while its payload travels along untouched.
///
/// A flow's events often carry data the next screen needs — a Facebook profile, a token, a user
/// id. The transition table should not care about that data: it routes by the event's case,
/// and the full event (payload included) reaches the reply. Declare a payload-free `Kind` with
/// one case per event case and return it from ``kind``:
///
/// ```swift
/// enum SignUpEvent: TransitionEvent {
///     case start
///     case confirm(code: String)
///
///     enum Kind: Hashable, Sendable, CaseIterable { case start, confirm }
///
///     var kind: Kind {
///         switch self {
///         case .start: .start
///         case .confirm: .confirm
///         }
///     }
/// }
///
/// let table = try TransitionTable<SignUpState, SignUpEvent>([
///     Transition(from: .welcome, to: .code, by: .start),
///     Transition(from: .code, to: .done, by: .confirm),
/// ])
/// let next = table.transition(from: .code, by: .confirm(code: "123456")) // .done
/// ```
///
/// Events without payloads need no `Kind`: a `Hashable` event is its own kind.
///
/// ```swift
/// enum Tap: Hashable, Sendable, TransitionEvent { case next, back }
/// ```
public protocol TransitionEvent: Sendable {
    /// The payload-free case of the event, used to route it.
    associatedtype Kind: Hashable & Sendable = Self

    /// The case of this event, without its payload.
    var kind: Kind { get }
}

extension TransitionEvent where Kind == Self {
    /// An event without payload is its own kind.
    public var kind: Self { self }
}
