import SingletonStores

/// The registry key of the API target.
public enum APITargetStoreKey: ProductionStoreKey {
    /// ``APITargetStore/shared``.
    public static var productionValue: any APITargetStoreContract { APITargetStore.shared }
    /// The production environment.
    public static var stubValue: any APITargetStoreContract { APITargetStoreStub(target: .production) }
    /// `api-target`, as in `--store-variant api-target=dev01`.
    public static var launchName: String { "api-target" }
    /// One stub per target, named like it: `production`, `dev01`, `dev02`.
    public static var launchVariants: [String: any APITargetStoreContract] {
        Dictionary(uniqueKeysWithValues: APITarget.allCases.map { ($0.rawValue, APITargetStoreStub(target: $0)) })
    }
}

extension StoreValues {
    /// The current API target store.
    public var apiTarget: any APITargetStoreContract {
        get { self[APITargetStoreKey.self] }
        set { self[APITargetStoreKey.self] = newValue }
    }
}
