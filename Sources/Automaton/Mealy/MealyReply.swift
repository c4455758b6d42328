/// What a ``MealyMachine`` did with one input: it moved and produced an output, or it rejected
/// the input and stayed put.
public enum MealyReply<State: Sendable, Input: Sendable, Output> {
    /// The input moved the machine from `from` to `to` and produced `output`.
    case accepted(input: Input, from: State, to: State, output: Output)
    /// The input is not defined in state `from`; the state is unchanged and no output was built.
    case rejected(input: Input, from: State)

    /// The same reply without the output, as a ``TransitionReply``.
    public var transition: TransitionReply<State, Input> {
        switch self {
        case let .accepted(input, from, to, _): .success(input: input, from: from, to: to)
        case let .rejected(input, from): .failure(input: input, from: from)
        }
    }

    /// The output, or `nil` if the input was rejected.
    public var output: Output? {
        if case let .accepted(_, _, _, output) = self { return output }
        return nil
    }
}

extension MealyReply: Sendable where Output: Sendable {}
