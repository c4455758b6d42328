/// The wildcard of a mapping rule, written `.any`: every input on the left of `|`, every state
/// on its right.
///
/// ```swift
/// let mappings: [EffectMapping<DoorState, DoorInput>] = [
///     .reset | .any    => .closed,   // reset from any state
///     .any   | .locked => .locked,   // ignore every input while locked
///     .open  | .closed => .opened,
/// ]
/// ```
///
/// Either side of a condition may also be a value (`.closed`) or a predicate
/// (`@Sendable (State) -> Bool`); see ``EffectMapping``. In a rule, `.any` is always the
/// wildcard, even when the state or input type has a case named `any`: write that case with its
/// type, `DoorState.any`.
public enum MappingWildcard: Sendable {
    /// Matches every input, or every state.
    case any
}
