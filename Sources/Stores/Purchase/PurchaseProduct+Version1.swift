/// A ``PurchaseProduct`` as format 1 stored it, in the shape Swift synthesizes for the enum:
/// `{"boostItems": {"_0": 3}}`, `{"premium": {"days": 30}}`.
///
/// Read only, from documents of format 1; they are rewritten in the current shape on their next
/// change.
enum PurchaseProductVersion1: Decodable {
    case boostItems(Int)
    case premium(days: Int)

    /// The product this stands for.
    var current: PurchaseProduct {
        switch self {
        case .boostItems(let count): .boostItems(count)
        case .premium(let days): .premium(days: days)
        }
    }
}
