import SingletonStores

/// The registry key of the purchase state.
public enum PurchaseStoreKey: ProductionStoreKey {
    /// ``PurchaseManager/shared``.
    public static var productionValue: any PurchaseStoreContract { PurchaseManager.shared }
    /// Nothing owned.
    public static var stubValue: any PurchaseStoreContract { PurchaseStoreStub() }
    /// `purchases`; it offers no launch variants.
    public static var launchName: String { "purchases" }
}

extension StoreValues {
    /// The current purchase store.
    public var purchases: any PurchaseStoreContract {
        get { self[PurchaseStoreKey.self] }
        set { self[PurchaseStoreKey.self] = newValue }
    }
}
