import SingletonStores

extension PurchaseProduct {
    /// The keys of a product on disk.
    private enum CodingKeys: String, CodingKey {
        case kind, count, days
    }

    /// Decodes a product: `{"kind": "boostItems", "count": 3}` or
    /// `{"kind": "premium", "days": 30}`, or the shape of format 1 in a document of that version.
    public init(from decoder: any Decoder) throws {
        if decoder.documentFormatVersion == 1 {
            self = try PurchaseProductVersion1(from: decoder).current
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        switch name {
        case "boostItems": self = .boostItems(try container.decode(Int.self, forKey: .count))
        case "premium": self = .premium(days: try container.decode(Int.self, forKey: .days))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "“\(name.prefix(40))” is not a product")
        }
    }

    /// Encodes the product: its name under `kind`, its amount under `count` or `days`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .boostItems(let count):
            try container.encode("boostItems", forKey: .kind)
            try container.encode(count, forKey: .count)
        case .premium(let days):
            try container.encode("premium", forKey: .kind)
            try container.encode(days, forKey: .days)
        }
    }
}
