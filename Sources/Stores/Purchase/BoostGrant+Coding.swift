import Foundation
import SingletonStores
import Timers

extension BoostGrant {
    private enum CodingKeys: String, CodingKey {
        case id, endDate, bootID, endSinceBootSeconds, lengthSeconds
    }

    /// Decodes a grant and range-checks it: the end within the years 0000–9999, the id at most
    /// 200 characters, the boot id at most 64, the time since boot and the length finite and
    /// not below zero (the length at most the longest boost). A grant written before boot times
    /// and lengths were recorded has neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        endDate = try container.decode(Date.self, forKey: .endDate)
        bootID = try container.decodeIfPresent(String.self, forKey: .bootID)
        endSinceBootSeconds = try container.decodeIfPresent(Double.self, forKey: .endSinceBootSeconds)
        lengthSeconds = try container.decodeIfPresent(Double.self, forKey: .lengthSeconds)
        try BootClock.checkStored(
            bootID: bootID, forKey: .bootID, endSinceBootSeconds: endSinceBootSeconds, forKey: .endSinceBootSeconds,
            in: container)
        if let length = lengthSeconds, !CountdownStore.isStorableLength(seconds: length) {
            throw DecodingError.dataCorruptedError(
                forKey: .lengthSeconds, in: container,
                debugDescription: "\(length) s is not between 0 and the longest boost (100 years)")
        }
    }

    /// Encodes the grant: its id and end, and its boot time and length when recorded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(endDate, forKey: .endDate)
        try container.encodeIfPresent(bootID, forKey: .bootID)
        try container.encodeIfPresent(endSinceBootSeconds, forKey: .endSinceBootSeconds)
        try container.encodeIfPresent(lengthSeconds, forKey: .lengthSeconds)
    }

    /// Whether two grants are the same boost: the same id, end, boot time and length.
    public static func == (lhs: BoostGrant, rhs: BoostGrant) -> Bool {
        lhs.id == rhs.id && lhs.endDate == rhs.endDate && lhs.bootID == rhs.bootID
            && lhs.endSinceBootSeconds == rhs.endSinceBootSeconds && lhs.lengthSeconds == rhs.lengthSeconds
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(endDate)
        hasher.combine(bootID)
        hasher.combine(endSinceBootSeconds)
        hasher.combine(lengthSeconds)
    }

    /// The grant `grant` of the countdown behind the boost, with its spend check.
    init(_ grant: CountdownGrant) {
        self.init(id: grant.id, endDate: grant.endDate)
        bootID = grant.bootID
        endSinceBootSeconds = grant.endSinceBootSeconds
        lengthSeconds = grant.lengthSeconds
        spendCheck = grant.spendCheck
    }

    /// This grant as the countdown behind the boost reads it.
    var countdownGrant: CountdownGrant {
        CountdownGrant(
            id: id, endDate: endDate, bootID: bootID, endSinceBootSeconds: endSinceBootSeconds,
            lengthSeconds: lengthSeconds, spendCheck: spendCheck)
    }
}
