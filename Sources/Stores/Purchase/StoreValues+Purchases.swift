import SingletonStores

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
