/// What the screens that continue with a Mercari account need: the account and its token.
///
/// ```swift
/// let screen = AtteLoginScreen.make(withDependency: .init(resource: resource, token: token))
/// ```
public struct MercariAccountDependency: Hashable, Sendable {
    /// The Mercari account to continue with.
    public var resource: MercariIDResource
    /// The token for that account.
    public var token: String

    /// Creates the dependency.
    public init(resource: MercariIDResource, token: String) {
        self.resource = resource
        self.token = token
    }
}
