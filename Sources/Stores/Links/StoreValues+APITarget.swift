import SingletonStores

/// The registry key of the API target.
public enum APITargetStoreKey: ProductionStoreKey {
    /// ``APITargetStore/shared``.
    public static var productionValue: any APITargetStoreContract { APITargetStore.shared }
    /// The production environment.
    public static var stubValue: any APITargetStoreContract { APITargetStoreStub(target: .production) }
}

extension StoreValues {
    /// The current API target store.
    public var apiTarget: any APITargetStoreContract {
        get { self[APITargetStoreKey.self] }
        set { self[APITargetStoreKey.self] = newValue }
    }
}
