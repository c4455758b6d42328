/// One rule of an ``EffectAutomaton``: from a state and an input, the next state and the effect
/// to start, or `nil` when the rule does not apply.
///
/// Write rules as a `switch`, or with the `|` and `=>` operators, and combine them — the first
/// rule that matches wins. Each side of a condition is a value, a predicate
/// (`canForceLogout`) or ``MappingWildcard/any``:
///
/// ```swift
/// let mappings: [EffectMapping<LoginState, LoginInput>] = [
///     /*  input      | from state     => to state   | effect       */
///     .login       | .loggedOut     => .loggingIn  | loginOK,
///     .loginOK     | .loggingIn     => .loggedIn   | .none,
///     .forceLogout | canForceLogout => .loggingOut | forceLogoutOK,
///     .logout      | .any           => .loggingOut,
/// ]
/// let mapping = EffectMapping(firstOf: mappings)
/// ```
public struct EffectMapping<State: Sendable, Input: Sendable>: Sendable {
    private let body: @Sendable (State, Input) -> (State, Effect<Input>)?

    /// Creates a rule from a function.
    public init(_ body: @escaping @Sendable (State, Input) -> (State, Effect<Input>)?) {
        self.body = body
    }

    /// Combines rules: the first one that matches decides.
    public init(firstOf mappings: [EffectMapping]) {
        self.init { state, input in
            for mapping in mappings {
                if let result = mapping.body(state, input) { return result }
            }
            return nil
        }
    }

    /// The next state and effect for `input` in `state`, or `nil` if the rule does not apply.
    public func callAsFunction(_ state: State, _ input: Input) -> (state: State, effect: Effect<Input>)? {
        guard let (next, effect) = body(state, input) else { return nil }
        return (next, effect)
    }
}
