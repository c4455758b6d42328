/// Why a ``TransitionTable`` could not be built.
public enum TransitionTableError<State: Hashable & Sendable, Kind: Hashable & Sendable>: Error, Equatable, CustomStringConvertible
{
    /// Two entries leave the same state by the same kind of event, so the table would be
    /// ambiguous. `first` is kept in the message; `duplicate` is the later entry.
    case duplicateTransition(first: Transition<State, Kind>, duplicate: Transition<State, Kind>)

    /// A message that says what is wrong and what to do.
    public var description: String {
        switch self {
        case let .duplicateTransition(first, duplicate):
            if first == duplicate {
                return "The transition \(first) is listed twice. Remove one of the two entries."
            }
            return "Two transitions leave \(first.from) by \(first.by): \(first) and \(duplicate). "
                + "Each (state, event) pair may appear once: remove one entry, or give one of them its own event."
        }
    }
}
