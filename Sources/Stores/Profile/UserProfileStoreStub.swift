import SingletonStoresLocking

/// A profile store that keeps its profile in memory, for tests and previews.
///
/// ```swift
/// let stub = UserProfileStoreStub(UserProfile(nickname: "Aki", gender: .female))
/// try stub.setRank(.gold)
/// stub.profile.rank   // .gold
/// ```
public final class UserProfileStoreStub: UserProfileStoreContract {
    private let current: Locked<UserProfile>

    /// Creates a stub holding `profile`.
    ///
    /// - Parameter profile: The starting profile; empty by default.
    public init(_ profile: UserProfile = UserProfile()) {
        current = Locked(profile)
    }

    /// The current profile.
    public var profile: UserProfile { current.withLock { $0 } }

    /// Sets the name shown to other users.
    public func setNickname(_ nickname: String) { current.withLock { $0.nickname = nickname } }
    /// Sets the gender, or clears it with `nil`.
    public func setGender(_ gender: Gender?) { current.withLock { $0.gender = gender } }
    /// Sets the membership rank.
    public func setRank(_ rank: UserRank) { current.withLock { $0.rank = rank } }
    /// Turns beta features on or off.
    public func setBetaUser(_ isBetaUser: Bool) { current.withLock { $0.isBetaUser = isBetaUser } }
}
