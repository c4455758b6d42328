import SingletonStores

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
