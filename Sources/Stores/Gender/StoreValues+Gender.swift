import SingletonStores

/// The registry key of the user's gender.
public enum GenderStoreKey: ProductionStoreKey {
    /// ``GenderStore/shared``.
    public static var productionValue: any GenderStoreContract { GenderStore.shared }
    /// A user with no gender set.
    public static var stubValue: any GenderStoreContract { GenderStoreStub(genderCode: nil) }
    /// `gender`, as in `--store-variant gender=female`.
    public static var launchName: String { "gender" }
    /// `female`, `male`, or `none` (no gender code); `unset`, the earlier name of `none`, is
    /// still accepted.
    public static var launchVariants: [String: any GenderStoreContract] {
        [
            "female": GenderStoreStub(isFemale: true, isNilGenderCode: false),
            "male": GenderStoreStub(isFemale: false, isNilGenderCode: false),
            "none": GenderStoreStub(isFemale: false, isNilGenderCode: true),
            "unset": GenderStoreStub(isFemale: false, isNilGenderCode: true),
        ]
    }
}

extension StoreValues {
    /// The current gender store.
    public var gender: any GenderStoreContract {
        get { self[GenderStoreKey.self] }
        set { self[GenderStoreKey.self] = newValue }
    }
}
