/// Something the user can buy.
///
/// ```swift
/// PurchaseProduct.boostItems(3)     // three boost items
/// PurchaseProduct.premium(days: 30) // thirty days of premium
/// ```
public enum PurchaseProduct: Sendable, Codable, Hashable, CustomStringConvertible {
    /// A number of boost items; each starts one boost.
    case boostItems(Int)
    /// Premium membership for a number of days, added to any premium time left.
    case premium(days: Int)

    /// `3 boost items`, `30 days of premium`.
    public var description: String {
        switch self {
        case .boostItems(1): "1 boost item"
        case .boostItems(let count): "\(count) boost items"
        case .premium(let days): days == 1 ? "1 day of premium" : "\(days) days of premium"
        }
    }
}
