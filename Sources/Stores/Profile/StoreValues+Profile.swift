import SingletonStores

/// The registry key of the user profile.
public enum UserProfileStoreKey: ProductionStoreKey {
    /// ``UserProfileStore/shared``.
    public static var productionValue: any UserProfileStoreContract { UserProfileStore.shared }
    /// An empty profile kept in memory.
    public static var stubValue: any UserProfileStoreContract { UserProfileStoreStub() }
    /// `profile`; it offers no launch variants.
    public static var launchName: String { "profile" }
}

extension StoreValues {
    /// The current user profile store.
    public var profile: any UserProfileStoreContract {
        get { self[UserProfileStoreKey.self] }
        set { self[UserProfileStoreKey.self] = newValue }
    }
}
