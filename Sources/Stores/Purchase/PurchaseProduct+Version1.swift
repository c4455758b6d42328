/// A ``PurchaseProduct`` as format 1 stored it, in the shape Swift synthesizes for the enum:
/// `{"boostItems": {"_0": 3}}`, `{"premium": {"days": 30}}`.
///
/// Read only: by the migration of the built-in purchase documents from version 1 (see
/// `PurchaseDocumentMigrations`), and by ``PurchaseProduct``'s decoding in a document of format 1
/// of an app's own.
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
