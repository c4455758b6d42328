import Foundation
import Observation
import SingletonStores
import SingletonStoresLocking
import StoreObservation
import Timers

/// The app's one boost countdown: every screen reads it, so every screen shows the same time.
///
/// A QA report once found a main screen at 12:34 and its popup at 12:35 because each ran its own
/// `Timer`. Here one deadline-based `CountdownTimer` drives the boost; each change of the
/// shown seconds is posted once as `.boostTimeNotification`, with the seconds as the
/// notification's `object` as classic observers read them, and through the typed channel:
///
/// ```swift
/// BoostTimeManager.shared.startCountDown(duration: 15 * 60)
///
/// // The main screen and the popup, however late it opens, read and redraw the same value.
/// let token = NotificationChannel.boostTime.observe { seconds in
///     label.text = seconds.formatted(.countdown)   // "14:59", "14:58", …
/// }
/// let shown = BoostTimeManager.shared.remainingSeconds   // the same value, from any thread
/// ```
///
/// ## Time
/// The countdown follows a monotonic clock (`ContinuousClock` by default), so changing the
/// device's time neither extends nor shortens a running boost. Its end is also persisted as a
/// wall-clock date (the `boost` document), so a relaunch mid-boost resumes with the right time
/// left and a relaunch after the end shows no boost. Where the platform tells (Linux today), the
/// end is also recorded on the device's boot time line: a relaunch on the same boot reads the
/// time left from there, so setting the date back before relaunching cannot stretch the boost
/// either (with the system wall clock; a wall clock of your own has no boot time line beside it).
/// After a restart of the device only the date is left; the time left is then capped
/// at what was left when the boost was last written, so a date set back can at most give back
/// the time the boost had already run. Tests inject a `ManualClock` and a `WallClock` (both
/// from Timers).
///
/// ## Several processes
/// The `boost` document is the truth. Every change — start, stop, extend, pause, resume, and
/// spending an item on a boost — is decided under the document's file lock from what is on
/// disk at that moment, then written, then shown by this process's countdown. So of several
/// processes using items at once on an idle boost exactly one starts it, and while a boost runs
/// in any process, no other process can start one over it with an item. Each process also
/// follows the document (and the purchase ledger, for boosts started with an item): a boost
/// another process starts, extends, pauses, resumes or stops is shown here within milliseconds
/// (file events) or one poll interval, with the same posts as a local change — the countdown
/// re-targets to the new end, and an end is posted once in each process that showed the boost.
///
/// Following and reading take no lock, so a process stopped while it holds the boost's lock
/// (a suspended app extension, say) never stops this one's countdown: it keeps counting, shows
/// the boost's end once, and a boost that ran out is cleared on disk by a later change. Changes
/// wait for the lock at most the storage's lock timeout; one that times out is reported through
/// `reportIssue` and changes nothing.
///
/// ## Ends
/// ``StoreObservation/NotificationChannel/boostEnded`` is posted exactly once per boost, when it runs out or is
/// stopped, whether or not anyone observes; a boost replaced by a new start does not end, it is
/// replaced.
///
/// It is a `CountdownStore` (SingletonStores) on the `boost` document that also follows the boosts the purchase
/// ledger's items start; make a countdown of your own the same way.
///
/// ## Bad input
/// Zero or negative durations end any running boost at once (as a stop would);
/// durations beyond ``maximumDuration`` (100 years) are clamped to it. A `boost` document whose
/// boost ends further ahead than that (an end in the year 9999, which no start writes) is
/// refused: it shows as no boost, `reportIssue` is told, and the next start replaces it.
/// A `boost` document that can't be written (another program's file in a folder the library
/// did not make, another user's) refuses every change, an item's use included, before anything
/// is spent.
public final class BoostTimeManager: BoostTimeManagerContract {
    /// The app's boost countdown: the continuous clock, the system wall clock, the default data
    /// folder and the default notification center.
    public static let shared = BoostTimeManager()

    /// The longest boost: 100 years. Longer durations are clamped to it.
    public static let maximumDuration = CountdownStore.maximumDuration

    /// The countdown behind the boost: the `boost` document, and the boosts items start.
    public let countdown: CountdownStore

    /// The notification center the boost posts `.boostTimeNotification` and
    /// `.boostEndedNotification` to.
    public let center: NotificationCenter

    /// Creates a boost countdown and resumes the boost recorded on disk, if one is running or
    /// paused.
    ///
    /// - Parameters:
    ///   - clock: The monotonic clock the countdown runs on; a `ManualClock` (from Timers) in tests.
    ///   - wallClock: The wall clock the persisted end date is read and written with.
    ///   - storage: Where the `boost` document lives. Boosts started by spending an item are
    ///     read from the `purchases` ledger of the same storage.
    ///   - center: The notification center changes are posted to.
    ///   - watching: How the manager follows boosts other processes change; file events or a
    ///     poll by default, `.off` to read the disk only at launch and on this process's changes.
    ///   - reportIssue: Receives storage problems; prints to standard error by default.
    public convenience init(
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            clock: clock, wallClock: wallClock, bootClock: wallClock.bootClock, storage: storage, center: center,
            watching: watching, reportIssue: reportIssue)
    }

    /// Creates a boost countdown that reads the device's boot time line from `bootClock` (tests
    /// pass one of their own to play a relaunch on the same boot or after a restart).
    package init(
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        bootClock: BootClock,
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.center = center
        countdown = CountdownStore(
            key: Self.documentKey, grants: Self.itemGrants(in: storage, reportIssue: reportIssue), clock: clock,
            wallClock: wallClock, bootClock: bootClock, storage: storage, ticks: .boostTime, ends: .boostEnded,
            center: center, watching: watching, reportIssue: reportIssue)
    }

    /// The boost's document.
    static let documentKey = "boost"

    /// The boosts the purchase ledger's items start: the newest grant of the ledger on disk.
    private static func itemGrants(
        in storage: any StoreStorage, reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) -> CountdownGrants {
        CountdownGrants(key: PurchaseDocuments.ledger.key) { () throws(StorageError) -> CountdownGrant? in
            let ledger = try storage.load(PurchaseDocuments.ledger)
            if let problem = ledger.recovery { reportIssue(.storageRecovered(problem)) }
            return ledger.value.latestBoostGrant?.countdownGrant
        }
    }

    // MARK: Reading

    /// Whether a boost is running: ``remainingSeconds`` is above zero.
    public var isInBoostTime: Bool { countdown.isRunning }

    /// The seconds a screen shows: the time left rounded up, `0` when no boost runs.
    public var remainingSeconds: Int { countdown.remainingSeconds }

    /// Whether the running boost is paused.
    public var isPaused: Bool { countdown.isPaused }

    /// When the running boost ends on the wall clock, as recorded on disk (every process
    /// showing the boost reads the same date); `nil` when no boost runs or it is paused.
    ///
    /// Schedule a reminder with it; to show the time left, read ``remainingSeconds``.
    public var endDate: Date? { countdown.endDate }

    // MARK: Changing

    /// Starts a boost of `duration` seconds, replacing any running one.
    ///
    /// - Parameter duration: Seconds. Zero or less ends any running boost at once; more than
    ///   ``maximumDuration`` is clamped to it.
    public func startCountDown(duration: Int) {
        countdown.reportingFailure { () throws(StorageError) in try countdown.start(duration: .seconds(duration)) }
    }

    /// Starts a boost of `duration` seconds, replacing any running one, and throws when it could
    /// not be saved: then nothing changed, in this process or on disk.
    ///
    /// ``startCountDown(duration:)`` reports a failed save to `reportIssue` and carries on; use
    /// this one where the user must be told that the boost did not start:
    ///
    /// ```swift
    /// do {
    ///     try boost.start(duration: 15 * 60)
    /// } catch {
    ///     showAlert(error.description)   // the data folder is read-only, the disk is full…
    /// }
    /// ```
    ///
    /// - Parameter duration: Seconds. Zero or less ends any running boost at once (as
    ///   ``stop()`` does); more than ``maximumDuration`` is clamped to it.
    /// - Throws: The `StorageError` of the failed save.
    public func start(duration: Int) throws(StorageError) {
        try countdown.start(duration: .seconds(duration))
    }

    /// Ends the running boost now, and throws when that could not be saved: then the boost
    /// keeps running, in this process and on disk. Posts
    /// ``StoreObservation/NotificationChannel/boostEnded`` if one was running.
    ///
    /// ``stopCountDown()`` reports a failed save to `reportIssue` instead.
    ///
    /// - Throws: The `StorageError` of the failed save.
    public func stop() throws(StorageError) {
        try countdown.stop()
    }

    /// Starts a boost only if none is running or paused in any process, as one atomic step: of
    /// two concurrent calls, in one process or two, exactly one starts.
    ///
    /// - Parameter duration: Seconds, above zero; more than ``maximumDuration`` is clamped.
    /// - Throws: ``BoostError/alreadyRunning(remainingSeconds:)`` or
    ///   ``BoostError/invalidDuration(_:)``; then nothing changed.
    public func startCountDownIfIdle(duration: Int) throws(BoostError) {
        try countdown.startIfIdleSeconds(duration)
    }

    /// Starts a boost of `duration` seconds paid for by `payment` — spending one item, say — as
    /// one durable step, only if no boost is running or paused in any process.
    ///
    /// The decision is taken under the `boost` document's lock from what is on disk. `payment`
    /// runs under that lock with the ``BoostGrant`` describing the boost; it should record the
    /// grant in the same write that spends the item (``PurchaseManager`` writes it into the
    /// ledger entry, and checks there that no other item was spent since this decision). A
    /// crash after that write leaves the item spent and its boost running to the grant's end,
    /// with the same protections against a date set back as a boost written here; a crash
    /// before it leaves neither. Once `payment` returned, the call succeeds: a boost document
    /// that can't be written then is reported to `reportIssue`, and the boost runs from its
    /// grant. That holds when the ledger is in this manager's storage (the default); with
    /// separate storages the boost's own record, written right after, is what a later launch
    /// reads, so a crash between the two writes would show the item spent and no boost.
    ///
    /// - Parameters:
    ///   - duration: Seconds, above zero; more than ``maximumDuration`` is clamped.
    ///   - payment: Spends what the boost costs, or throws to refuse it. It must not post or
    ///     touch the boost.
    /// - Throws: ``PurchaseError/boostNotStarted(_:)`` when a boost is running (nothing was
    ///   spent), what `payment` threw, or the storage's error when the decision could not be
    ///   taken (nothing was spent).
    public func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        try countdown.startCountDownIfIdle(duration: duration, paidBy: payment)
    }

    /// Ends the running boost now; posts ``StoreObservation/NotificationChannel/boostEnded`` if
    /// one was running.
    public func stopCountDown() {
        countdown.reportingFailure { () throws(StorageError) in try countdown.stop() }
    }

    /// Adds `seconds` to the running boost (or to a paused one's time left).
    ///
    /// - Parameter seconds: Seconds to add; zero or less changes nothing. The time left is
    ///   clamped to ``maximumDuration``.
    public func extend(by seconds: Int) {
        countdown.reportingFailure { () throws(StorageError) in try countdown.extend(by: .seconds(seconds)) }
    }

    /// Adds `duration` to the running boost (or to a paused one's time left), and throws when
    /// that could not be saved: then nothing changed. `extend(by:)` with seconds reports it instead.
    ///
    /// - Parameter duration: Zero or less changes nothing. The time left is clamped to
    ///   ``maximumDuration``.
    /// - Throws: The `StorageError` of the failed save.
    public func extend(by duration: Duration) throws(StorageError) {
        try countdown.extend(by: duration)
    }

    /// Pauses the running boost: the time left freezes until ``resume()``. A failed save is
    /// reported; ``setPaused(_:)`` throws it instead.
    public func pause() {
        countdown.reportingFailure { () throws(StorageError) in try countdown.setPaused(true) }
    }

    /// Resumes a paused boost with the time it had left. A failed save is reported;
    /// ``setPaused(_:)`` throws it instead.
    public func resume() {
        countdown.reportingFailure { () throws(StorageError) in try countdown.setPaused(false) }
    }

    /// Pauses (`true`) or resumes (`false`) the boost, and throws when that could not be saved:
    /// then nothing changed, in this process or on disk.
    ///
    /// - Parameter paused: Whether the boost should be paused.
    /// - Throws: The `StorageError` of the failed save.
    public func setPaused(_ paused: Bool) throws(StorageError) {
        try countdown.setPaused(paused)
    }
}

/// The boost takes part in Swift Observation: reading ``remainingSeconds``, ``isInBoostTime``
/// or ``isPaused`` inside `withObservationTracking` (a SwiftUI `body`) registers a dependency
/// (on its ``countdown``). `onChange` runs once per change of the shown second — just before
/// the `.boostTimeNotification` post carrying the same value, on the countdown's task (on Linux,
/// for the system clocks, the process's ticker thread) — and at
/// start, stop, pause and resume (on the thread that made the change).
extension BoostTimeManager: Observable {}
