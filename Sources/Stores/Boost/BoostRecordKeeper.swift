import Foundation
import SingletonStoresLocking
import Timers

/// Keeps the `boost` document in step with the countdown: what a relaunch needs to resume.
///
/// Every change writes the record *after* changing the timer, and a record is cleared only when
/// the timer is idle at that moment. So a boost that ends while another is being started can
/// never clear the new boost's record, in any interleaving, and the decision never depends on the
/// wall clock (which the user may have changed).
final class BoostRecordKeeper: Sendable {
    private static let key = "boost"

    private let storage: any StoreStorage
    private let wallClock: WallClock
    private let reportIssue: @Sendable (StoreIssue) -> Void
    private let timerReference = Locked(WeakTimer())

    private struct WeakTimer {
        weak var timer: CountdownTimer?
    }

    init(storage: any StoreStorage, wallClock: WallClock, reportIssue: @escaping @Sendable (StoreIssue) -> Void) {
        self.storage = storage
        self.wallClock = wallClock
        self.reportIssue = reportIssue
    }

    /// Connects the timer whose state is recorded; held weakly, so the timer's handler may hold
    /// the keeper.
    func attach(_ timer: CountdownTimer) {
        timerReference.withLock { $0.timer = timer }
    }

    private var timer: CountdownTimer? {
        timerReference.withLock { $0.timer }
    }

    /// The record left by an earlier launch; `.none` when there is none or it cannot be read.
    func load() -> BoostRecord {
        do {
            let loaded = try storage.load(BoostRecord.self, forKey: Self.key, default: .none)
            if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
            return loaded.value
        } catch {
            reportIssue(.storageRecovered(error))
            return .none
        }
    }

    /// Records the timer's current state: a running boost's wall-clock end, a paused boost's
    /// time left, or nothing.
    func recordCurrentState() {
        guard let timer else { return }
        write { record in
            if timer.isPaused {
                record = BoostRecord(pausedRemainingSeconds: timer.remaining.seconds)
            } else if timer.isRunning {
                record = BoostRecord(endDate: self.wallClock.date(after: timer.remaining))
            } else {
                record = .none
            }
        }
    }

    /// Clears the record if no boost is running or paused right now.
    func clearIfIdle() {
        guard let timer else { return }
        write { record in
            if !timer.isRunning && !timer.isPaused { record = .none }
        }
    }

    /// Clears the record unconditionally (a boost that ended while the app was closed).
    func clear() {
        write { $0 = .none }
    }

    private func write(_ change: (inout BoostRecord) -> Void) {
        do {
            try storage.update(BoostRecord.self, forKey: Self.key, default: .none, change)
        } catch {
            reportIssue(.storageRecovered(error))
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
