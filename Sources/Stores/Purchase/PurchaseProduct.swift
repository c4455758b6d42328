/// Something the user can buy.
///
/// ```swift
/// let items = PurchaseProduct.boostItems(3)       // three boost items
/// let premium = PurchaseProduct.premium(days: 30)  // thirty days of premium
/// ```
///
/// One purchase buys 1 to 1,000 items (``boostItemLimit``) or 1 to 3,650 days of premium
/// (``premiumDayLimit``); ``PurchaseManager/buy(_:)`` refuses anything else with
/// ``PurchaseError/invalidProduct(_:)`` before it reaches the payment backend.
///
/// Stored in receipts as `{"kind": "boostItems", "count": 3}` or
/// `{"kind": "premium", "days": 30}`.
public enum PurchaseProduct: Sendable, Codable, Hashable, CustomStringConvertible {
    /// A number of boost items; each starts one boost.
    case boostItems(Int)
    /// Premium membership for a number of days, added to any premium time left.
    case premium(days: Int)

    /// How many boost items one purchase may buy.
    public static let boostItemLimit = 1...1_000

    /// How many days of premium one purchase may buy (ten years).
    public static let premiumDayLimit = 1...3_650

    /// Whether the amount is within ``boostItemLimit`` or ``premiumDayLimit``.
    public var isWithinLimits: Bool {
        switch self {
        case .boostItems(let count): Self.boostItemLimit.contains(count)
        case .premium(let days): Self.premiumDayLimit.contains(days)
        }
    }

    /// `3 boost items`, `30 days of premium`.
    public var description: String {
        switch self {
        case .boostItems(1): "1 boost item"
        case .boostItems(let count): "\(count) boost items"
        case .premium(let days): days == 1 ? "1 day of premium" : "\(days) days of premium"
        }
    }
}
