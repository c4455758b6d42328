/// A problem the store registry reports instead of crashing.
///
/// Issues go to ``StoreValues/reportIssue``, which prints them by default.
public enum StoreIssue: Sendable, Equatable, CustomStringConvertible {
    /// A key with no production value was read outside any override; its stub was used.
    ///
    /// - Parameter key: The key's fully qualified type name.
    case noProductionValue(key: String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noProductionValue(let key):
            "No store is set for \(key): it declares no production value. Override it with "
                + "withStores { $0[\(key).self] = … } in this test or preview, or conform "
                + "\(key) to ProductionStoreKey. Its stub was used instead."
        }
    }
}
