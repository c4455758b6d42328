extension StateMonad {
    /// A transition step: moves to `next(state)` and yields the output, or rejects.
    ///
    /// `output` is called only when `next` accepts, so a rejected input never builds a screen:
    ///
    /// ```swift
    /// let step: StateMonad<LoginState, String?> = .accepting(
    ///     { $0 == .loggedOut ? .loggingIn : nil },
    ///     output: { from, to in "\(from) → \(to)" }
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - next: The next state, or `nil` to reject the input in this state.
    ///   - output: Builds the output from the state left and the state entered.
    public static func accepting<Output>(
        _ next: @escaping @Sendable (State) -> State?,
        output: @escaping @Sendable (_ from: State, _ to: State) -> Output
    ) -> Self where Value == Output? {
        Self { state in
            guard let to = next(state) else { return (state, nil) }
            return (to, output(state, to))
        }
    }

    /// A step that rejects the input in every state: the state stays, no output is built.
    public static func rejecting<Output>() -> Self where Value == Output? {
        Self { state in (state, nil) }
    }
}
