/// A stateful computation: a function from a state to a new state and a value, `S -> (S, A)`.
///
/// Named `StateMonad` so it never clashes with an app's own `State` types. Build one from a
/// function, then chain with ``map(_:)`` and ``flatMap(_:)``; nothing runs until ``run(_:)``:
///
/// ```swift
/// let next: StateMonad<Int, String> = .init { count in (count + 1, "tick \(count)") }
/// let twice = next.flatMap { first in next.map { second in [first, second] } }
/// let result = twice.run(0) // (state: 2, value: ["tick 0", "tick 1"])
/// ```
///
/// ``MealyMachine`` uses it as its transition: each input becomes a computation over the
/// machine's state that yields the output.
public struct StateMonad<State, Value>: Sendable {
    private let body: @Sendable (State) -> (State, Value)

    /// Creates a computation from the function that performs it.
    public init(_ body: @escaping @Sendable (State) -> (State, Value)) {
        self.body = body
    }

    /// Runs the computation on `state`, returning the new state and the value.
    public func run(_ state: State) -> (state: State, value: Value) {
        let (next, value) = body(state)
        return (next, value)
    }

    /// A computation with the same effect on the state whose value is transformed by `transform`.
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> StateMonad<State, NewValue> {
        StateMonad<State, NewValue> { state in
            let (next, value) = body(state)
            return (next, transform(value))
        }
    }

    /// A computation that runs this one, then the one `transform` builds from its value, on the
    /// state this one left.
    public func flatMap<NewValue>(
        _ transform: @escaping @Sendable (Value) -> StateMonad<State, NewValue>
    ) -> StateMonad<State, NewValue> {
        StateMonad<State, NewValue> { state in
            let (next, value) = body(state)
            return transform(value).body(next)
        }
    }
}

extension StateMonad where Value: Sendable {
    /// A computation that leaves the state alone and yields `value`.
    public static func pure(_ value: Value) -> Self {
        Self { state in (state, value) }
    }
}

extension StateMonad where Value == State {
    /// A computation that yields the current state and leaves it alone.
    public static var get: Self {
        Self { state in (state, state) }
    }
}

extension StateMonad where Value == Void, State: Sendable {
    /// A computation that replaces the state with `state`.
    public static func put(_ state: State) -> Self {
        Self { _ in (state, ()) }
    }
}

extension StateMonad where Value == Void {
    /// A computation that changes the state with `transform`.
    public static func modify(_ transform: @escaping @Sendable (State) -> State) -> Self {
        Self { state in (transform(state), ()) }
    }
}
