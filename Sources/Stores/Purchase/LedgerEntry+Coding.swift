import SingletonStores

extension LedgerEntry.Kind {
    /// Decodes a kind stored on its own: `{"kind": "boostItemsBought", "count": 3}`, as in a
    /// ledger entry (see ``LedgerEntry``), or the shape of format 1 in a document of that version.
    public init(from decoder: any Decoder) throws {
        if decoder.documentFormatVersion == 1 {
            self = try LedgerEntryKindVersion1(from: decoder).current
        } else {
            self = try Self(storedIn: decoder.container(keyedBy: LedgerEntry.CodingKeys.self))
        }
    }

    /// Encodes the kind on its own: its name under `kind`, its amount beside it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerEntry.CodingKeys.self)
        try encode(into: &container)
    }

    /// The kind's name on disk.
    private var storedName: String {
        switch self {
        case .boostItemsBought: "boostItemsBought"
        case .boostItemUsed: "boostItemUsed"
        case .boostItemRefunded: "boostItemRefunded"
        case .premiumBought: "premiumBought"
        }
    }

    /// Reads the kind from the keys `kind`, `count` and `days` of `container`.
    init(storedIn container: KeyedDecodingContainer<LedgerEntry.CodingKeys>) throws {
        let name = try container.decode(String.self, forKey: .kind)
        switch name {
        case "boostItemsBought": self = .boostItemsBought(try container.decode(Int.self, forKey: .count))
        case "boostItemUsed": self = .boostItemUsed
        case "boostItemRefunded": self = .boostItemRefunded
        case "premiumBought": self = .premiumBought(days: try container.decode(Int.self, forKey: .days))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "“\(name.prefix(40))” is not a kind of ledger entry")
        }
    }

    /// Writes the kind's name under `kind` and its amount under `count` or `days`.
    func encode(into container: inout KeyedEncodingContainer<LedgerEntry.CodingKeys>) throws {
        try container.encode(storedName, forKey: .kind)
        switch self {
        case .boostItemsBought(let count): try container.encode(count, forKey: .count)
        case .premiumBought(let days): try container.encode(days, forKey: .days)
        case .boostItemUsed, .boostItemRefunded: break
        }
    }
}
