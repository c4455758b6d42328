import Foundation
import SingletonStores

/// What screens and links need to know about the user's gender.
///
/// App code takes the contract, never a concrete store, so a test or a debug screen can pass a
/// ``GenderStoreStub``:
///
/// ```swift
/// func welcome(gender: any GenderStoreContract = StoreValues.current.gender) -> String {
///     gender.isFemale ? "Welcome, ma'am" : "Welcome"
/// }
/// ```
///
/// Codes follow ISO/IEC 5218: 1 is male, 2 is female. A user who has not set a gender has a
/// `nil` code and is neither male nor female.
public protocol GenderStoreContract: Sendable {
    /// Whether the user is male (code 1).
    var isMale: Bool { get }
    /// Whether the user is female (code 2).
    var isFemale: Bool { get }
    /// The user's ISO/IEC 5218 gender code, or `nil` when there is none to send.
    var genderCode: Int? { get }
    /// The notification center on which a change of the gender is posted (as a change of the
    /// profile, ``StoreObservation/NotificationChannel/userProfile``): a screen that follows the
    /// gender through notifications observes it there.
    var center: NotificationCenter { get }
}

extension GenderStoreContract {
    /// `.default`, for a store that posts nothing or posts there.
    public var center: NotificationCenter { .default }
}
