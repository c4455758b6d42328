import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStoresTesting
import Stores
import Timers

/// A boost manager wired to a manual clock, a manual wall clock, in-memory storage and a
/// private notification center, with a recorder of everything it posts.
final class BoostTestRig: Sendable {
    let clock = ManualClock()
    let wall: ManualWallClock
    let storage: InMemoryStorage
    let center = NotificationCenter()
    let recorder: ChangeRecorder
    let reports = Recorder<StoreIssue>()
    let boost: BoostTimeManager

    init(
        storage: InMemoryStorage = InMemoryStorage(),
        wall: ManualWallClock = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
    ) {
        self.storage = storage
        self.wall = wall
        recorder = ChangeRecorder(center: center)
        let reports = self.reports
        boost = BoostTimeManager(
            clock: clock, wallClock: wall.wallClock, storage: storage, center: center,
            reportIssue: { reports.append($0) })
    }

    /// The app launched again: same storage and wall clock, a fresh monotonic clock and center.
    func relaunch() -> BoostTestRig {
        BoostTestRig(storage: storage, wall: wall)
    }

    /// The seconds posted on `.boostTimeNotification`, in order.
    var ticks: [Int] { recorder.values(of: .boostTime) }
    /// The ends posted, in order.
    var ends: [BoostEnd] { recorder.values(of: .boostEnded) }
}
