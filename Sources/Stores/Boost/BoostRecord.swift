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
/// { "bootID" : "6f0c…", "endDate" : "2025-05-10T09:23:20.4316511Z", "endSinceBootSeconds" : 5321.5,
///   "remainingSecondsWhenWritten" : 600, "settledGrantID" : "0B3FE868-…" }
/// { "pausedRemainingSeconds" : 1045.75 }
/// ```
///
/// A running boost records its end twice: as a wall-clock date, which every launch can read,
/// and — where the platform tells (see `BootClock`) — on the device's boot time line, with the
/// id of that boot. A launch on the same boot reads the time left from the boot time line, so
/// setting the date back before a relaunch cannot stretch the boost. After a restart of the
/// device only the date is left; the time left is then capped at what was left when the record
/// was written (`remainingSecondsWhenWritten`), so a date set back stretches a boost by at most
/// the time it had already run.
///
/// Decoding range-checks every field: a document with an end outside the years 0000–9999, a
/// paused or remaining time that is negative, not finite or beyond
/// ``BoostTimeManager/maximumDuration``, a boot time that is negative or not finite, or an id
/// longer than 200 characters (a boot id longer than 64) is invalid and kept aside by the
/// storage.
struct BoostRecord: Codable, Sendable, Equatable {
    /// When the running boost ends, on the wall clock.
    var endDate: Date?
    /// The time left of a paused boost, in seconds.
    var pausedRemainingSeconds: Double?
    /// The newest ledger grant this record already reflects.
    var settledGrantID: String?
    /// The boot the running boost's ``endSinceBootSeconds`` belongs to.
    var bootID: String?
    /// When the running boost ends, in seconds since that boot.
    var endSinceBootSeconds: Double?
    /// The time the running boost had left when this record was written, in seconds.
    var remainingSecondsWhenWritten: Double?

    /// No boost, and no grant settled.
    static let none = BoostRecord()

    init(
        endDate: Date? = nil, pausedRemainingSeconds: Double? = nil, settledGrantID: String? = nil,
        bootID: String? = nil, endSinceBootSeconds: Double? = nil, remainingSecondsWhenWritten: Double? = nil
    ) {
        self.endDate = endDate
        self.pausedRemainingSeconds = pausedRemainingSeconds
        self.settledGrantID = settledGrantID
        self.bootID = bootID
        self.endSinceBootSeconds = endSinceBootSeconds
        self.remainingSecondsWhenWritten = remainingSecondsWhenWritten
    }

    /// The record of a boost running until `endDate`, with `left` to go now: its end is also
    /// recorded on `bootClock`'s time line when the platform tells.
    static func running(endDate: Date, left: Duration, bootClock: BootClock, settled: String?) -> BoostRecord {
        var record = BoostRecord(endDate: endDate, settledGrantID: settled, remainingSecondsWhenWritten: left.seconds)
        if let id = bootClock.bootID(), let sinceBoot = bootClock.sinceBoot() {
            record.bootID = id
            record.endSinceBootSeconds = (sinceBoot + left).seconds
        }
        return record
    }

    /// The time left of the running boost now: from the boot time line when the record was
    /// written on this boot, else from the wall clock, capped at what was left when written.
    /// `nil` when the record holds no running boost.
    func runningTimeLeft(wallClock: WallClock, bootClock: BootClock) -> Duration? {
        guard let endDate else { return nil }
        if let bootID, let end = endSinceBootSeconds, bootID == bootClock.bootID(), let now = bootClock.sinceBoot() {
            return .seconds(end) - now
        }
        let left = wallClock.duration(until: endDate)
        guard let cap = remainingSecondsWhenWritten else { return left }
        return min(left, .seconds(cap))
    }

    private enum CodingKeys: String, CodingKey {
        case endDate, pausedRemainingSeconds, settledGrantID, bootID, endSinceBootSeconds, remainingSecondsWhenWritten
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
        bootID = try container.decodeIfPresent(String.self, forKey: .bootID)
        endSinceBootSeconds = try container.decodeIfPresent(Double.self, forKey: .endSinceBootSeconds)
        remainingSecondsWhenWritten = try container.decodeIfPresent(Double.self, forKey: .remainingSecondsWhenWritten)
        if let seconds = endSinceBootSeconds, !(seconds.isFinite && (0...1e12).contains(seconds)) {
            throw DecodingError.dataCorruptedError(
                forKey: .endSinceBootSeconds, in: container, debugDescription: "\(seconds) s since boot is not a time")
        }
        if let left = remainingSecondsWhenWritten, !(0...CountdownTimer.maximumDuration.seconds).contains(left) {
            throw DecodingError.dataCorruptedError(
                forKey: .remainingSecondsWhenWritten, in: container,
                debugDescription: "\(left) s is not between 0 and the longest boost (100 years)")
        }
        if (bootID?.count ?? 0) > 64 {
            throw DecodingError.dataCorruptedError(
                forKey: .bootID, in: container, debugDescription: "the boot id is longer than 64 characters")
        }
        if (settledGrantID?.count ?? 0) > 200 {
            throw DecodingError.dataCorruptedError(
                forKey: .settledGrantID, in: container, debugDescription: "the id is longer than 200 characters")
        }
    }

    /// This record, or the boost of `grant` when the grant is newer than anything recorded here:
    /// with the grant's end on the boot time line and its length as the cap, when the grant
    /// recorded them, so a boost read back from its grant is protected as one written here.
    func merging(_ grant: BoostGrant?) -> BoostRecord {
        guard let grant, grant.id != settledGrantID else { return self }
        return BoostRecord(
            endDate: grant.endDate, settledGrantID: grant.id, bootID: grant.bootID,
            endSinceBootSeconds: grant.endSinceBootSeconds, remainingSecondsWhenWritten: grant.lengthSeconds)
    }
}
