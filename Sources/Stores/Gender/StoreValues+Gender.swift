import SingletonStores

/// The registry key of the user's gender.
public enum GenderStoreKey: ProductionStoreKey {
    /// ``GenderStore/shared``.
    public static var productionValue: any GenderStoreContract { GenderStore.shared }
    /// A user with no gender set.
    public static var stubValue: any GenderStoreContract { GenderStoreStub(genderCode: nil) }
}

extension StoreValues {
    /// The current gender store.
    public var gender: any GenderStoreContract {
        get { self[GenderStoreKey.self] }
        set { self[GenderStoreKey.self] = newValue }
    }
}
