/// One committed change of a store's state: the value before and the value after.
///
/// A store posts a `StoreChange` on its channel each time a write commits a new value. Writes
/// that leave the state equal to what it was post nothing, so `old != new` always holds.
///
/// ```swift
/// let token = counter.observe { change in
///     print("\(change.old) → \(change.new)")
/// }
/// ```
public struct StoreChange<State: Sendable>: Sendable {
    /// The state before the change.
    public let old: State
    /// The committed state after the change.
    public let new: State

    /// Creates a change from `old` to `new`.
    public init(old: State, new: State) {
        self.old = old
        self.new = new
    }
}

extension StoreChange: Equatable where State: Equatable {}
extension StoreChange: Hashable where State: Hashable {}

extension StoreChange: CustomStringConvertible {
    /// `old → new`, for test failure messages and logs.
    public var description: String { "\(old) → \(new)" }
}
