/// Why a countdown ended: posted once per countdown on ``CountdownStore/ends``.
///
/// A countdown replaced by a new start does not end; it is replaced.
public enum CountdownEnd: Sendable, Equatable {
    /// Its time ran out.
    case finished
    /// It was stopped, or a duration of zero or less ended it.
    case stopped
}
