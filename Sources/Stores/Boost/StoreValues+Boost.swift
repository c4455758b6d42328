import SingletonStores

/// The registry key of the boost countdown.
public enum BoostTimeManagerKey: ProductionStoreKey {
    /// ``BoostTimeManager/shared``.
    public static var productionValue: any BoostTimeManagerContract { BoostTimeManager.shared }
    /// No boost running.
    public static var stubValue: any BoostTimeManagerContract { BoostTimeManagerStub(remainingSeconds: 0) }
    /// `boost`, as in `--store-variant boost=running`.
    public static var launchName: String { "boost" }
    /// `none`: no boost; `running`: a stub boost with 12:34 left that does not tick.
    public static var launchVariants: [String: any BoostTimeManagerContract] {
        ["none": BoostTimeManagerStub(remainingSeconds: 0), "running": BoostTimeManagerStub(remainingSeconds: 754)]
    }
}

extension StoreValues {
    /// The current boost countdown.
    public var boost: any BoostTimeManagerContract {
        get { self[BoostTimeManagerKey.self] }
        set { self[BoostTimeManagerKey.self] = newValue }
    }
}
