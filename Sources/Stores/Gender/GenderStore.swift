import Foundation
import SingletonStores

/// The production gender store: the gender of the current user profile, read from the
/// profile store rather than kept in a second place.
///
/// It stores nothing itself, so it can never disagree with the profile:
///
/// ```swift
/// try UserProfileStore.shared.setGender(.female)
/// let isFemale = GenderStore.shared.isFemale      // true
/// let code = GenderStore.shared.genderCode        // 2
/// ```
public struct GenderStore: GenderStoreContract {
    /// The gender of the current profile store (``SingletonStores/StoreValues/profile``), looked up at each
    /// read: overriding the profile in a `withStores` scope changes this gender too.
    public static let shared = GenderStore()

    private let fixedProfileStore: (any UserProfileStoreContract)?

    /// Creates a gender store reading `profileStore`.
    ///
    /// - Parameter profileStore: The profile the gender comes from; `nil` (the default) reads
    ///   the current profile store of `StoreValues` at each access.
    public init(profile profileStore: (any UserProfileStoreContract)? = nil) {
        self.fixedProfileStore = profileStore
    }

    private var gender: Gender? {
        (fixedProfileStore ?? StoreValues.current.profile).profile.gender
    }

    /// Whether the profile's gender is male (code 1).
    public var isMale: Bool { gender == .male }
    /// Whether the profile's gender is female (code 2).
    public var isFemale: Bool { gender == .female }
    /// The profile's ISO/IEC 5218 code; `nil` when none is set or the stored code is unknown.
    public var genderCode: Int? { gender?.isoCode }
    /// The center of the profile store the gender is read from, where a change of the gender is
    /// posted as a change of the profile.
    public var center: NotificationCenter { (fixedProfileStore ?? StoreValues.current.profile).center }
}
