/// A name for effects, so they can be cancelled later.
///
/// Several effects may share an id; cancelling the id cancels all of them, running or
/// suspended:
///
/// ```swift
/// let search: EffectID = "search"
/// let effect = Effect<Input>(id: search) { context in try await api.search(); return .results }
/// await automaton.cancel(search)
/// ```
public struct EffectID: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id's name.
    public let name: String

    /// Creates an id with the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates an id from a string literal.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The id's name.
    public var description: String { name }
}
