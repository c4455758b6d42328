/// The registry key of the user's gender.
public enum GenderStoreKey: ProductionStoreKey {
    /// ``GenderStore/shared``.
    public static var productionValue: any GenderStoreContract { GenderStore.shared }
    /// A user with no gender set.
    public static var stubValue: any GenderStoreContract { GenderStoreStub(genderCode: nil) }
}

/// The registry key of the user profile.
public enum UserProfileStoreKey: ProductionStoreKey {
    /// ``UserProfileStore/shared``.
    public static var productionValue: any UserProfileStoreContract { UserProfileStore.shared }
    /// An empty profile kept in memory.
    public static var stubValue: any UserProfileStoreContract { UserProfileStoreStub() }
}

/// The registry key of the API target.
public enum APITargetStoreKey: ProductionStoreKey {
    /// ``APITargetStore/shared``.
    public static var productionValue: any APITargetStoreContract { APITargetStore.shared }
    /// The production environment.
    public static var stubValue: any APITargetStoreContract { APITargetStoreStub(target: .production) }
}

extension StoreValues {
    /// The current gender store.
    public var gender: any GenderStoreContract {
        get { self[GenderStoreKey.self] }
        set { self[GenderStoreKey.self] = newValue }
    }

    /// The current user profile store.
    public var profile: any UserProfileStoreContract {
        get { self[UserProfileStoreKey.self] }
        set { self[UserProfileStoreKey.self] = newValue }
    }

    /// The current API target store.
    public var apiTarget: any APITargetStoreContract {
        get { self[APITargetStoreKey.self] }
        set { self[APITargetStoreKey.self] = newValue }
    }
}

/// The registry key of the boost countdown.
public enum BoostTimeManagerKey: ProductionStoreKey {
    /// ``BoostTimeManager/shared``.
    public static var productionValue: any BoostTimeManagerContract { BoostTimeManager.shared }
    /// No boost running.
    public static var stubValue: any BoostTimeManagerContract { BoostTimeManagerStub(remainingSeconds: 0) }
}

extension StoreValues {
    /// The current boost countdown.
    public var boost: any BoostTimeManagerContract {
        get { self[BoostTimeManagerKey.self] }
        set { self[BoostTimeManagerKey.self] = newValue }
    }
}

/// The registry key of the purchase state.
public enum PurchaseStoreKey: ProductionStoreKey {
    /// ``PurchaseManager/shared``.
    public static var productionValue: any PurchaseStoreContract { PurchaseManager.shared }
    /// Nothing owned.
    public static var stubValue: any PurchaseStoreContract { PurchaseStoreStub() }
}

extension StoreValues {
    /// The current purchase store.
    public var purchases: any PurchaseStoreContract {
        get { self[PurchaseStoreKey.self] }
        set { self[PurchaseStoreKey.self] = newValue }
    }
}
