import Foundation

/// What the boost persists so a relaunch can resume it: the wall-clock end of a running boost,
/// or the time left of a paused one. Stored as the `boost` document.
struct BoostRecord: Codable, Sendable, Equatable {
    /// When the running boost ends, on the wall clock.
    var endDate: Date?
    /// The time left of a paused boost, in seconds.
    var pausedRemainingSeconds: Double?

    static let none = BoostRecord()
}
