import Foundation
import SingletonStores

/// The user's profile, read by screens and changed through intent methods.
///
/// ```swift
/// let profile = StoreValues.current.profile
/// try profile.setNickname("Aki")
/// let nickname = profile.profile.nickname   // "Aki"
/// ```
public protocol UserProfileStoreContract: Sendable {
    /// The current profile.
    var profile: UserProfile { get }
    /// Sets the name shown to other users.
    func setNickname(_ nickname: String) throws(StorageError)
    /// Sets the gender, or clears it with `nil`.
    func setGender(_ gender: Gender?) throws(StorageError)
    /// Sets the membership rank.
    func setRank(_ rank: UserRank) throws(StorageError)
    /// Turns beta features on or off for the user.
    func setBetaUser(_ isBetaUser: Bool) throws(StorageError)
    /// The notification center the store posts ``StoreObservation/NotificationChannel/userProfile``
    /// to: a screen that follows the profile through notifications observes it there, so it
    /// follows a stub as it follows the production store.
    var center: NotificationCenter { get }
}

extension UserProfileStoreContract {
    /// `.default`, for a store that posts nothing or posts there.
    public var center: NotificationCenter { .default }
}
