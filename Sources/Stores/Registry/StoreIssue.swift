/// A problem the store registry reports instead of crashing.
///
/// Issues go to ``StoreValues/reportIssue``, which prints them by default.
public enum StoreIssue: Sendable, Equatable, CustomStringConvertible {
    /// A key with no production value was read outside any override; its stub was used.
    ///
    /// - Parameter key: The key's fully qualified type name.
    case noProductionValue(key: String)

    /// A store's document could not be used; it was kept aside (see the error) and the store
    /// started from its defaults.
    case storageRecovered(StorageError)

    /// The stored profile has a gender code that is not an ISO/IEC 5218 code. It is kept as
    /// it is and reads as no gender.
    case unknownGenderCode(Int)

    /// Prints the issue to standard error, prefixed with `SingletonStores:`.
    public static let printToStandardError: @Sendable (StoreIssue) -> Void = { issue in
        writeLineToStandardError("SingletonStores: \(issue)")
    }

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noProductionValue(let key):
            "No store is set for \(key): it declares no production value. Override it with "
                + "withStores { $0[\(key).self] = … } in this test or preview, or conform "
                + "\(key) to ProductionStoreKey. Its stub was used instead."
        case .storageRecovered(let error):
            "\(error)"
        case .unknownGenderCode(let code):
            "The stored profile has gender code \(code), which is not an ISO/IEC 5218 code "
                + "(0, 1, 2 or 9). It is kept unchanged and read as no gender; set the gender "
                + "again to replace it."
        }
    }
}
