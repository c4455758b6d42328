import Foundation
import StoreObservation
import Timers

/// The app's one boost countdown: every screen reads it, so every screen shows the same time.
///
/// Seed 004 found a main screen at 12:34 and its popup at 12:35 because each ran its own
/// `Timer`. Here one deadline-based ``Timers/CountdownTimer`` drives the boost; each change of the
/// shown seconds is posted once as `.boostTimeNotification`, with the seconds as the
/// notification's `object` exactly as the seed posted them, and through the typed channel:
///
/// ```swift
/// BoostTimeManager.shared.startCountDown(duration: 15 * 60)
///
/// // The main screen and the popup, however late it opens, read and redraw the same value.
/// let token = NotificationChannel.boostTime.observe { seconds in
///     label.text = seconds.formatted(.countdown)   // "14:59", "14:58", …
/// }
/// BoostTimeManager.shared.remainingSeconds         // the same value, from any thread
/// ```
///
/// ## Time
/// The countdown follows a monotonic clock (`ContinuousClock` by default), so changing the
/// device's time neither extends nor shortens a running boost. Its end is also persisted as a
/// wall-clock date (the `boost` document), so a relaunch mid-boost resumes with the right time
/// left and a relaunch after the end shows no boost. Tests inject a ``Timers/ManualClock`` and a
/// ``Timers/WallClock``.
///
/// ## Ends
/// ``NotificationChannel/boostEnded`` is posted exactly once per boost, when it runs out or is
/// stopped, whether or not anyone observes; a boost replaced by a new start does not end, it is
/// replaced.
///
/// ## Bad input
/// Zero or negative durations end any running boost at once (the seed's `guard isInBoostTime`);
/// durations beyond ``maximumDuration`` (100 years) are clamped to it.
public final class BoostTimeManager: BoostTimeManagerContract {
    /// The app's boost countdown: the continuous clock, the system wall clock, the default data
    /// folder and the default notification center.
    public static let shared = BoostTimeManager()

    /// The longest boost: 100 years. Longer durations are clamped to it.
    public static let maximumDuration = CountdownTimer.maximumDuration

    private let timer: CountdownTimer
    private let records: BoostRecordKeeper
    private let wallClock: WallClock

    /// Creates a boost countdown and resumes a boost persisted by an earlier launch.
    ///
    /// - Parameters:
    ///   - clock: The monotonic clock the countdown runs on; a ``Timers/ManualClock`` in tests.
    ///   - wallClock: The wall clock the persisted end date is read and written with.
    ///   - storage: Where the `boost` document lives.
    ///   - center: The notification center changes are posted to.
    ///   - reportIssue: Receives storage problems; prints to standard error by default.
    public init(
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        let records = BoostRecordKeeper(storage: storage, wallClock: wallClock, reportIssue: reportIssue)
        self.records = records
        self.wallClock = wallClock
        timer = CountdownTimer(clock: clock) { event in
            switch event {
            case .tick(let seconds):
                NotificationChannel.boostTime.post(seconds, object: seconds, center: center)
            case .ended(let reason):
                records.clearIfIdle()
                NotificationChannel.boostEnded.post(reason == .finished ? .finished : .stopped, center: center)
            }
        }
        records.attach(timer)
        resume(records.load())
    }

    // MARK: Reading

    /// Whether a boost is running: ``remainingSeconds`` is above zero.
    public var isInBoostTime: Bool { remainingSeconds > 0 }

    /// The seconds a screen shows: the time left rounded up, `0` when no boost runs.
    public var remainingSeconds: Int { timer.shownSeconds }

    /// Whether the running boost is paused.
    public var isPaused: Bool { timer.isPaused }

    // MARK: Changing

    /// Starts a boost of `duration` seconds, replacing any running one (seed 004).
    ///
    /// - Parameter duration: Seconds. Zero or less ends any running boost at once; more than
    ///   ``maximumDuration`` is clamped to it.
    public func startCountDown(duration: Int) {
        guard duration > 0 else {
            stopCountDown()
            return
        }
        timer.start(duration: Self.clamped(duration))
        records.recordCurrentState()
    }

    /// Starts a boost only if none is running, as one atomic step: of two concurrent calls,
    /// exactly one starts.
    ///
    /// - Parameter duration: Seconds, above zero; more than ``maximumDuration`` is clamped.
    /// - Throws: ``BoostError/alreadyRunning(remainingSeconds:)`` or
    ///   ``BoostError/invalidDuration(_:)``; then nothing changed.
    public func startCountDownIfIdle(duration: Int) throws(BoostError) {
        guard duration > 0 else { throw .invalidDuration(duration) }
        guard timer.startIfIdle(duration: Self.clamped(duration)) else {
            throw .alreadyRunning(remainingSeconds: remainingSeconds)
        }
        records.recordCurrentState()
    }

    /// Ends the running boost now; posts ``NotificationChannel/boostEnded`` if one was running.
    public func stopCountDown() {
        timer.stop()
        records.clearIfIdle()
    }

    /// Adds `seconds` to the running boost (or to a paused one's time left).
    ///
    /// - Parameter seconds: Seconds to add; zero or less changes nothing.
    public func extend(by seconds: Int) {
        guard seconds > 0 else { return }
        timer.extend(by: Self.clamped(seconds))
        records.recordCurrentState()
    }

    /// Pauses the running boost: the time left freezes until ``resume()``.
    public func pause() {
        timer.pause()
        records.recordCurrentState()
    }

    /// Resumes a paused boost with the time it had left.
    public func resume() {
        timer.resume()
        records.recordCurrentState()
    }

    // MARK: Relaunch

    private static func clamped(_ seconds: Int) -> Duration {
        min(.seconds(seconds), maximumDuration)
    }

    /// Resumes what an earlier launch recorded: a paused boost stays paused, a running one
    /// resumes with the time left until its wall-clock end, an ended one is cleared.
    private func resume(_ record: BoostRecord) {
        if let paused = record.pausedRemainingSeconds, paused > 0 {
            timer.start(duration: min(.seconds(paused), Self.maximumDuration))
            timer.pause()
        } else if let endDate = record.endDate, wallClock.duration(until: endDate) > .zero {
            timer.start(duration: min(wallClock.duration(until: endDate), Self.maximumDuration))
        } else if record != .none {
            records.clear()
        }
    }
}
