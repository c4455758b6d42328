import Automaton

/// What Facebook tells the app about a user who authenticates there.
public struct FacebookProfile: Hashable, Sendable {
    /// The Facebook user id.
    public var id: String
    /// The user's display name.
    public var name: String

    /// Creates a profile.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
