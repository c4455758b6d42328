import Foundation
import SingletonStoresLocking

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
        if let seconds = endSinceBootSeconds, !(seconds.isFinite && (0...1e12).contains(seconds)) {
            throw DecodingError.dataCorruptedError(
                forKey: .endSinceBootSeconds, in: container, debugDescription: "\(seconds) s since boot is not a time")
        }
        if let length = lengthSeconds, !(0...CountdownStore.maximumDuration.seconds).contains(length) {
            throw DecodingError.dataCorruptedError(
                forKey: .lengthSeconds, in: container,
                debugDescription: "\(length) s is not between 0 and the longest boost (100 years)")
        }
        if (bootID?.count ?? 0) > 64 {
            throw DecodingError.dataCorruptedError(
                forKey: .bootID, in: container, debugDescription: "the boot id is longer than 64 characters")
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

    /// The grant of a boost recorded as `record` (its end, boot time and length), with the id
    /// `id`.
    init(id: String, record: BoostRecord) {
        self.init(id: id, endDate: record.endDate ?? Date(timeIntervalSince1970: 0))
        bootID = record.bootID
        endSinceBootSeconds = record.endSinceBootSeconds
        lengthSeconds = record.remainingSecondsWhenWritten
    }
}

/// What the purchase ledger must still hold for an item to be spent on a grant: the newest
/// grant the boost saw when it decided that no boost runs.
///
/// The boost decides under its own lock, but the item is spent under the ledger's. Should the
/// boost's lock file be removed meanwhile, another process may decide too; the spend checks,
/// under the ledger's lock, that no other item was spent on a boost since this decision, and
/// else spends nothing and marks the check ``isStale``: the boost then decides again from disk.
final class BoostSpendCheck: Sendable {
    /// The id of the newest grant in the ledger when the decision was taken; `nil` for none.
    let latestGrantID: String?
    private let stale = Locked(false)

    init(latestGrantID: String?) {
        self.latestGrantID = latestGrantID
    }

    /// Whether the ledger held another grant when the item was to be spent.
    var isStale: Bool { stale.withLock { $0 } }

    /// Records that the ledger held another grant: nothing was spent.
    func markStale() {
        stale.withLock { $0 = true }
    }
}
