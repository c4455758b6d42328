import Automaton

/// The Mercari account a user can bring to Atte.
public struct MercariIDResource: Hashable, Sendable {
    /// The Mercari user id.
    public var userID: Int64
    /// The Mercari nickname.
    public var nickname: String

    /// Creates a resource.
    public init(userID: Int64, nickname: String) {
        self.userID = userID
        self.nickname = nickname
    }
}
