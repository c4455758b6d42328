import Foundation
import Timers

/// What a countdown persists so that every process and every later launch agree: the
/// wall-clock end of a running countdown, or the time left of a paused one. Stored as the
/// countdown's document (`boost` for the built-in boost; the keys are those it has always
/// written, so its documents load unchanged).
///
/// A countdown started by spending an item is written first into the document that spends the
/// item (a ``CountdownGrant``); ``settledGrantID`` names the newest grant this record already
/// reflects. A newer grant wins over the record (see ``merging(_:)``), so a crash between the two
/// writes loses nothing.
///
/// On disk, a running countdown and a paused one:
///
/// ```json
/// { "bootID" : "6f0c…", "endDate" : "2025-05-10T09:23:20.4316511Z", "endSinceBootSeconds" : 5321.5,
///   "remainingSecondsWhenWritten" : 600, "settledGrantID" : "0B3FE868-…" }
/// { "pausedRemainingSeconds" : 1045.75 }
/// ```
///
/// A running countdown records its end twice: as a wall-clock date, which every launch can
/// read, and — where the platform tells (see `BootClock`) — on the device's boot time line, with
/// the id of that boot. A launch on the same boot reads the time left from the boot time line,
/// so setting the date back before a relaunch cannot stretch the countdown. After a restart of
/// the device only the date is left; the time left is then capped at what was left when the
/// record was written (`remainingSecondsWhenWritten`), so a date set back stretches a countdown
/// by at most the time it had already run.
///
/// Decoding range-checks every field: a document with an end outside the years 0000–9999, a
/// paused or remaining time that is negative, not finite or beyond
/// ``CountdownStore/maximumDuration``, a boot time that is negative or not finite, or an id
/// longer than 200 characters (a boot id longer than 64) is invalid and kept aside by the
/// storage. A running countdown whose time left is longer than ``CountdownStore/maximumDuration``
/// (an end in the year 9999 with no length recorded) is refused when it is read: it shows as no
/// countdown, the store reports it, and the next change replaces it.
package struct CountdownRecord: Codable, Sendable, Equatable {
    /// When the running countdown ends, on the wall clock.
    package var endDate: Date?
    /// The time left of a paused countdown, in seconds.
    package var pausedRemainingSeconds: Double?
    /// The newest grant this record already reflects.
    package var settledGrantID: String?
    /// The boot the running countdown's ``endSinceBootSeconds`` belongs to.
    package var bootID: String?
    /// When the running countdown ends, in seconds since that boot.
    package var endSinceBootSeconds: Double?
    /// The time the running countdown had left when this record was written, in seconds.
    package var remainingSecondsWhenWritten: Double?

    /// No countdown, and no grant settled.
    package static let none = CountdownRecord()

    package init(
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

    /// The record of a countdown running until `endDate`, with `left` to go now: its end is
    /// also recorded on `bootClock`'s time line when the platform tells.
    static func running(endDate: Date, left: Duration, bootClock: BootClock, settled: String?) -> CountdownRecord {
        var record = CountdownRecord(endDate: endDate, settledGrantID: settled, remainingSecondsWhenWritten: left.seconds)
        if let id = bootClock.bootID(), let sinceBoot = bootClock.sinceBoot() {
            record.bootID = id
            record.endSinceBootSeconds = (sinceBoot + left).seconds
        }
        return record
    }

    /// The time left of the running countdown now: from the boot time line when the record was
    /// written on this boot, else from the wall clock, capped at what was left when written.
    /// `nil` when the record holds no running countdown.
    ///
    /// A record whose time left is longer than ``CountdownStore/maximumDuration`` (an end in
    /// the year 9999, say) is not one a countdown writes — every start and extension is
    /// clamped to it — and is refused: it reads as no countdown (see
    /// ``endsBeyondLongestCountdown(wallClock:bootClock:)``).
    func runningTimeLeft(wallClock: WallClock, bootClock: BootClock) -> Duration? {
        guard let endDate, !endsBeyondLongestCountdown(wallClock: wallClock, bootClock: bootClock) else { return nil }
        if let end = endOnThisBoot(bootClock) { return end }
        let left = wallClock.duration(until: endDate)
        guard let cap = remainingSecondsWhenWritten else { return left }
        return min(left, .seconds(cap))
    }

    /// Whether the record holds a running countdown whose time left is longer than
    /// ``CountdownStore/maximumDuration``: refused, read as no countdown. (A record that
    /// carries its length is capped by it, and a length is never longer.)
    func endsBeyondLongestCountdown(wallClock: WallClock, bootClock: BootClock) -> Bool {
        guard let endDate else { return false }
        let longest = CountdownStore.maximumDuration
        if let end = endOnThisBoot(bootClock) { return end > longest }
        guard remainingSecondsWhenWritten == nil else { return false }
        return endDate.timeIntervalSince(wallClock.now()) > longest.seconds
    }

    /// The time left on the boot time line, when the record was written on this boot.
    private func endOnThisBoot(_ bootClock: BootClock) -> Duration? {
        guard let bootID, let end = endSinceBootSeconds, bootID == bootClock.bootID(), let now = bootClock.sinceBoot()
        else { return nil }
        return .seconds(end) - now
    }

    private enum CodingKeys: String, CodingKey {
        case endDate, pausedRemainingSeconds, settledGrantID, bootID, endSinceBootSeconds, remainingSecondsWhenWritten
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endDate = try container.decodeIfPresent(Date.self, forKey: .endDate)
        pausedRemainingSeconds = try container.decodeIfPresent(Double.self, forKey: .pausedRemainingSeconds)
        settledGrantID = try container.decodeIfPresent(String.self, forKey: .settledGrantID)
        if let endDate, !endDate.isStorableInDocuments {
            throw DecodingError.dataCorruptedError(
                forKey: .endDate, in: container, debugDescription: "the end is outside the years 0000–9999")
        }
        if let paused = pausedRemainingSeconds, !CountdownStore.isStorableLength(seconds: paused) {
            throw DecodingError.dataCorruptedError(
                forKey: .pausedRemainingSeconds, in: container,
                debugDescription: "\(paused) s is not between 0 and the longest countdown (100 years)")
        }
        bootID = try container.decodeIfPresent(String.self, forKey: .bootID)
        endSinceBootSeconds = try container.decodeIfPresent(Double.self, forKey: .endSinceBootSeconds)
        remainingSecondsWhenWritten = try container.decodeIfPresent(Double.self, forKey: .remainingSecondsWhenWritten)
        try BootClock.checkStored(
            bootID: bootID, forKey: .bootID, endSinceBootSeconds: endSinceBootSeconds, forKey: .endSinceBootSeconds,
            in: container)
        if let left = remainingSecondsWhenWritten, !CountdownStore.isStorableLength(seconds: left) {
            throw DecodingError.dataCorruptedError(
                forKey: .remainingSecondsWhenWritten, in: container,
                debugDescription: "\(left) s is not between 0 and the longest countdown (100 years)")
        }
        if (settledGrantID?.count ?? 0) > 200 {
            throw DecodingError.dataCorruptedError(
                forKey: .settledGrantID, in: container, debugDescription: "the id is longer than 200 characters")
        }
    }

    /// This record, or the countdown of `grant` when the grant is newer than anything recorded
    /// here: with the grant's end on the boot time line and its length as the cap, when the
    /// grant recorded them, so a countdown read back from its grant is protected as one written
    /// here.
    func merging(_ grant: CountdownGrant?) -> CountdownRecord {
        guard let grant, grant.id != settledGrantID else { return self }
        return CountdownRecord(
            endDate: grant.endDate, settledGrantID: grant.id, bootID: grant.bootID,
            endSinceBootSeconds: grant.endSinceBootSeconds, remainingSecondsWhenWritten: grant.lengthSeconds)
    }
}

extension CountdownStore {
    /// Whether `seconds` is a time left or a length a document may hold: between zero and
    /// ``maximumDuration``.
    package static func isStorableLength(seconds: Double) -> Bool {
        (0...maximumDuration.seconds).contains(seconds)
    }
}
