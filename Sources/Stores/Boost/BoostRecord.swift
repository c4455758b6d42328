import Foundation
import Timers

/// What the boost persists so that every process and every later launch agree: the wall-clock
/// end of a running boost, or the time left of a paused one. Stored as the `boost` document.
///
/// A boost started by spending an item is written first into the purchase ledger, in the same
/// entry that spends the item (a ``BoostGrant``); ``settledGrantID`` names the newest grant this
/// record already reflects. A newer grant in the ledger wins over the record (see
/// ``merging(_:)``), so a crash between the two writes loses nothing.
///
/// On disk, a running boost and a paused one:
///
/// ```json
/// { "endDate" : "2025-05-10T09:23:20.4316511Z", "settledGrantID" : "0B3FE868-…" }
/// { "pausedRemainingSeconds" : 1045.75 }
/// ```
///
/// Decoding range-checks every field: a document with an end outside the years 0000–9999, a
/// paused time that is negative, not finite or beyond ``BoostTimeManager/maximumDuration``, or
/// an id longer than 200 characters is invalid and kept aside by the storage.
struct BoostRecord: Codable, Sendable, Equatable {
    /// When the running boost ends, on the wall clock.
    var endDate: Date?
    /// The time left of a paused boost, in seconds.
    var pausedRemainingSeconds: Double?
    /// The newest ledger grant this record already reflects.
    var settledGrantID: String?

    /// No boost, and no grant settled.
    static let none = BoostRecord()

    init(endDate: Date? = nil, pausedRemainingSeconds: Double? = nil, settledGrantID: String? = nil) {
        self.endDate = endDate
        self.pausedRemainingSeconds = pausedRemainingSeconds
        self.settledGrantID = settledGrantID
    }

    private enum CodingKeys: String, CodingKey {
        case endDate, pausedRemainingSeconds, settledGrantID
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endDate = try container.decodeIfPresent(Date.self, forKey: .endDate)
        pausedRemainingSeconds = try container.decodeIfPresent(Double.self, forKey: .pausedRemainingSeconds)
        settledGrantID = try container.decodeIfPresent(String.self, forKey: .settledGrantID)
        if let endDate, !StoredDate.isPlausible(endDate) {
            throw DecodingError.dataCorruptedError(
                forKey: .endDate, in: container, debugDescription: "the end is outside \(StoredDate.rangeDescription)")
        }
        if let paused = pausedRemainingSeconds, !(0...CountdownTimer.maximumDuration.seconds).contains(paused) {
            throw DecodingError.dataCorruptedError(
                forKey: .pausedRemainingSeconds, in: container,
                debugDescription: "\(paused) s is not between 0 and the longest boost (100 years)")
        }
        if (settledGrantID?.count ?? 0) > 200 {
            throw DecodingError.dataCorruptedError(
                forKey: .settledGrantID, in: container, debugDescription: "the id is longer than 200 characters")
        }
    }

    /// This record, or the boost of `grant` when the grant is newer than anything recorded here.
    func merging(_ grant: BoostGrant?) -> BoostRecord {
        guard let grant, grant.id != settledGrantID else { return self }
        return BoostRecord(endDate: grant.endDate, settledGrantID: grant.id)
    }
}
