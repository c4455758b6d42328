/// A ``LedgerEntry/Kind`` as format 1 stored it, in the shape Swift synthesizes for
/// the enum: `{"boostItemsBought": {"_0": 3}}`, `{"boostItemUsed": {}}`,
/// `{"boostItemRefunded": {}}`, `{"premiumBought": {"days": 30}}`.
///
/// Read only, from documents of format 1; they are rewritten in the current shape on their next
/// change. The synthesized decoding is the point: it reads exactly what the synthesized
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
