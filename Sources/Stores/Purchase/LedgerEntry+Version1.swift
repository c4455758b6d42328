/// A ``LedgerEntry/Kind`` as format 1 stored it, in the shape Swift synthesizes for
/// the enum: `{"boostItemsBought": {"_0": 3}}`, `{"boostItemUsed": {}}`,
/// `{"boostItemRefunded": {}}`, `{"premiumBought": {"days": 30}}`.
///
/// Read only: by the migration of the built-in purchase documents from version 1 (see
/// `PurchaseDocumentMigrations`), and by ``LedgerEntry``'s decoding in a document of format 1 of
/// an app's own. The synthesized decoding is the point: it reads exactly what the synthesized
/// encoding of that release wrote.
enum LedgerEntryKindVersion1: Decodable {
    case boostItemsBought(Int)
    case boostItemUsed
    case boostItemRefunded
    case premiumBought(days: Int)

    /// The kind this stands for.
    var current: LedgerEntry.Kind {
        switch self {
        case .boostItemsBought(let count): .boostItemsBought(count)
        case .boostItemUsed: .boostItemUsed
        case .boostItemRefunded: .boostItemRefunded
        case .premiumBought(let days): .premiumBought(days: days)
        }
    }
}
