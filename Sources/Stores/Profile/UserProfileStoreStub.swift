import Foundation
import SingletonStores

/// A profile store that keeps its profile in memory, for tests and previews.
///
/// ```swift
/// let stub = UserProfileStoreStub(UserProfile(nickname: "Aki", gender: .female))
/// stub.setRank(.gold)
/// let rank = stub.profile.rank   // .gold
/// ```
///
/// It takes part in Swift Observation as the production store does: reading ``profile`` inside
/// `withObservationTracking` (a SwiftUI `body`) registers a dependency and each change calls
/// `onChange` once. Its changes are posted on ``StoreObservation/NotificationChannel/userProfile``
/// to ``center``, a notification center of its own unless one is given, so a screen that
/// observes the contract's `center` follows the stub too.
public final class UserProfileStoreStub: UserProfileStoreContract {
    private let current: StoreCore<UserProfile>

    /// Creates a stub holding `profile`.
    ///
    /// - Parameters:
    ///   - profile: The starting profile; empty by default.
    ///   - center: Where its changes are posted; a center of its own by default, so that tests
    ///     running in parallel never see each other's posts.
    public init(_ profile: UserProfile = UserProfile(), center: NotificationCenter = NotificationCenter()) {
        current = StoreCore(profile, channel: .userProfile, center: center)
    }

    /// The current profile.
    public var profile: UserProfile { current.state }

    /// Where its changes are posted.
    public var center: NotificationCenter { current.center }

    /// Sets the name shown to other users.
    public func setNickname(_ nickname: String) { current.update { $0.nickname = nickname } }
    /// Sets the gender, or clears it with `nil`.
    public func setGender(_ gender: Gender?) { current.update { $0.gender = gender } }
    /// Sets the membership rank.
    public func setRank(_ rank: UserRank) { current.update { $0.rank = rank } }
    /// Turns beta features on or off.
    public func setBetaUser(_ isBetaUser: Bool) { current.update { $0.isBetaUser = isBetaUser } }
}
