import Foundation
import Observation
import SingletonStoresLocking
import StoreObservation
import Timers

/// A countdown every screen and every process agrees on, persisted so that it survives a
/// relaunch: "your order arrives in 12:34", a 30-minute premium boost, a refill timer.
///
/// ```swift
/// let arrival = CountdownStore(key: "order-arrival")       // <data folder>/order-arrival.json
/// try arrival.start(duration: .seconds(15 * 60))
/// let token = arrival.observe { seconds in                 // every change of the shown seconds
///     print(seconds.formatted(.countdown))                 // "14:59", "14:58", …
/// }
/// let shown = arrival.remainingSeconds                     // the same value, from any thread
/// ```
///
/// One deadline-based `CountdownTimer` drives it; each change of the shown seconds is posted
/// once on ``ticks`` (with the seconds as the notification's `object` for classic observers),
/// on the store's ``center``, and announced to Swift Observation; each countdown's end is posted
/// once on ``ends``; each pause and resume once on ``pauses``. ``observe(on:_:)`` hears all of
/// them. A test or a preview gives it a clock of its own (a `ManualClock`) or uses
/// ``init(stub:clock:center:)``; <doc:ACountdownOfYourOwn> shows a countdown declared,
/// registered under a ``StoreKey``, stubbed, shown on two screens and tested.
///
/// ## Time
/// The countdown follows a monotonic clock, so changing the device's time neither extends nor
/// shortens a running countdown. Its end is persisted as a wall-clock date and, where the
/// platform tells (Linux today, with the system wall clock), on the device's boot time line: a
/// relaunch on the same boot reads the time left from there, so setting the date back before
/// relaunching cannot stretch it; after a restart of the device the time left is capped at what
/// was left when it was last written.
///
/// ## Several processes
/// The document is the truth. Every change is decided under the document's file lock from what
/// is on disk, then written, then shown by this process's countdown; each process follows the
/// document, and a countdown another process starts, extends, pauses, resumes or stops is shown
/// here with the same posts as a local change.
///
/// ## Bad input
/// Zero or negative durations end any running countdown at once (as a stop would); durations
/// beyond ``maximumDuration`` (100 years) are clamped to it.
///
/// A store that is released ends its countdown silently and stops following its document.
public final class CountdownStore: Sendable {
    /// The longest countdown: 100 years. Longer durations are clamped to it.
    public static let maximumDuration = CountdownTimer.maximumDuration

    /// The document's name in the storage.
    public let key: String
    /// The channel each change of the shown seconds is posted on (the seconds are also the
    /// notification's `object`, as classic observers read them).
    public let ticks: NotificationChannel<Int>
    /// The channel the end of each countdown is posted on, once.
    public let ends: NotificationChannel<CountdownEnd>
    /// The channel each pause (`true`) and resume (`false`) is posted on, once, made in this
    /// process or followed from another one. A paused countdown that is stopped posts its end
    /// on ``ends``, not a resume.
    public let pauses: NotificationChannel<Bool>
    /// The notification center ``ticks``, ``ends`` and ``pauses`` are posted to: observe it (or use
    /// ``observe(on:_:)``) to follow this store, a stub's included.
    public let center: NotificationCenter

    let timer: CountdownTimer
    let journal: CountdownJournal
    let wallClock: WallClock
    let bootClock: BootClock
    // The engine every persisted store runs on: the state in memory, its transactions on disk,
    // following the document (and the grants' document, if any), and the commits handed to
    // `apply` in commit order.
    let persisted: PersistentStoreCore<CountdownState>
    // Keeps the commits coming to `apply` while the store lives.
    private let commits: ObservationToken
    // Swift Observation: `remainingSeconds` (and so `isRunning`) and `isPaused` register
    // here; the timer's reports and pause and resume announce through it.
    let registrar = ObservationRegistrar()

    /// Creates a countdown on the document `key` and resumes the countdown recorded there, if
    /// one is running or paused.
    ///
    /// - Parameters:
    ///   - key: The document's name: 1–120 letters, digits, `.`, `_` or `-`.
    ///   - clock: The monotonic clock the countdown runs on; a `ManualClock` (from Timers) in tests.
    ///   - wallClock: The wall clock the persisted end date is read and written with.
    ///   - storage: Where the document lives; the app's data folder by default.
    ///   - ticks: The channel each change of the shown seconds is posted on;
    ///     `SingletonStores.CountdownStore.<key>.time` by default.
    ///   - ends: The channel each end is posted on; `SingletonStores.CountdownStore.<key>.ended`
    ///     by default.
    ///   - pauses: The channel each pause and resume is posted on;
    ///     `SingletonStores.CountdownStore.<key>.paused` by default.
    ///   - center: The notification center changes are posted to.
    ///   - watching: How the store follows countdowns other processes change; file events or a
    ///     poll by default, `.off` to read the disk only at launch and on this process's changes.
    ///   - reportIssue: Receives storage problems; prints to standard error by default.
    public convenience init(
        key: String,
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        storage: any StoreStorage = FileStorage(),
        ticks: NotificationChannel<Int>? = nil,
        ends: NotificationChannel<CountdownEnd>? = nil,
        pauses: NotificationChannel<Bool>? = nil,
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            key: key, grants: nil, clock: clock, wallClock: wallClock, bootClock: wallClock.bootClock, storage: storage,
            ticks: ticks ?? NotificationChannel("SingletonStores.CountdownStore.\(key).time"),
            ends: ends ?? NotificationChannel("SingletonStores.CountdownStore.\(key).ended"),
            pauses: pauses, center: center, watching: watching, reportIssue: reportIssue)
    }

    /// A stub for tests and previews: the same store, on an in-memory storage. It counts down,
    /// posts and takes part in Swift Observation like the persisted one.
    ///
    /// - Parameters:
    ///   - remaining: The time left it starts with; zero (the default) starts it idle.
    ///   - clock: The clock it runs on: a `ManualClock` in a test, so that the test moves time.
    ///   - center: Where its changes are posted: a center of its own by default, so that tests
    ///     running in parallel never see each other's posts. Read it from ``center``.
    public convenience init(
        stub remaining: Duration = .zero,
        clock: some Clock<Duration> = ContinuousClock(),
        center: NotificationCenter = NotificationCenter()
    ) {
        self.init(key: "stub", clock: clock, storage: InMemoryStorage(), center: center, watching: .off)
        if remaining > .zero { reportingFailure { () throws(StorageError) in try start(duration: remaining) } }
    }

    /// Creates a countdown that also reads the newest grant from `grants` (a countdown the
    /// spend of an item started), and the device's boot time line from `bootClock`. Pauses are
    /// posted on `pauses`, `SingletonStores.CountdownStore.<key>.paused` by default.
    package init(
        key: String,
        grants: CountdownGrants?,
        clock: some Clock<Duration>,
        wallClock: WallClock,
        bootClock: BootClock,
        storage: any StoreStorage,
        ticks: NotificationChannel<Int>,
        ends: NotificationChannel<CountdownEnd>,
        pauses: NotificationChannel<Bool>? = nil,
        center: NotificationCenter,
        watching: StorageWatching,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) {
        self.key = key
        self.ticks = ticks
        self.ends = ends
        self.pauses = pauses ?? NotificationChannel("SingletonStores.CountdownStore.\(key).paused")
        self.center = center
        self.bootClock = bootClock
        let journal = CountdownJournal(key: key, grants: grants, storage: storage, reportIssue: reportIssue)
        // The timer's and the core's handlers are made before `self` exists; they reach the
        // store through this weak reference, set once the store is whole.
        let owner = LateBound<CountdownStore>()
        self.journal = journal
        self.wallClock = wallClock
        // The tick posts' userInfo, reused from tick to tick: the timer delivers one event at a time.
        let tickPosts = PayloadPostBuffer()
        let timer = CountdownTimer(clock: clock) { event in
            let store = owner.target
            switch event {
            case .tick(let seconds):
                // Observation first, then the post: both carry the same shown value.
                store?.announce(\.remainingSeconds)
                tickPosts.post(seconds, object: seconds, on: ticks, center: center)
            case .ended(let reason):
                // A stop reports no tick(0), so the shown value's change is announced here.
                if reason == .stopped { store?.announce(\.remainingSeconds) }
                store?.clearIfEnded()
                ends.post(reason == .finished ? .finished : .stopped, center: center)
            }
        }
        self.timer = timer
        // The core posts its changes to the store alone, on a center of its own.
        persisted = PersistentStoreCore(
            journal.document, storage: storage,
            channel: NotificationChannel("SingletonStores.CountdownStore.\(key).state"), center: NotificationCenter(),
            watching: watching,
            reading: journal.reading(now: { timer.now }, wallClock: wallClock, bootClock: bootClock),
            reportIssue: reportIssue)
        commits = persisted.observe { change in owner.targetForNews()?.apply(change.new) }
        let initial = persisted.state
        if initial.record.endsBeyondLongestCountdown(wallClock: wallClock, bootClock: bootClock) {
            journal.reportIssue(
                .unusableStoredValue(
                    key: key,
                    message:
                        "its countdown ends further ahead than the longest countdown (100 years), which no countdown writes; "
                        + "it is shown as no countdown, and the next start replaces it."))
        }
        apply(initial, posting: false)
        // A change followed from disk while the store was being made is applied now, in
        // order with those that follow.
        if owner.bind(self) { persisted.postCurrentState() }
    }

    // MARK: Reading

    /// Whether a countdown is running or paused: ``remainingSeconds`` is above zero.
    public var isRunning: Bool { remainingSeconds > 0 }

    /// The seconds a screen shows: the time left rounded up, `0` when no countdown runs.
    public var remainingSeconds: Int {
        registrar.access(self, keyPath: \.remainingSeconds)
        return timer.shownSeconds
    }

    /// Whether the running countdown is paused.
    public var isPaused: Bool {
        registrar.access(self, keyPath: \.isPaused)
        return timer.isPaused
    }

    /// When the running countdown ends on the wall clock, as recorded on disk (every process
    /// showing the countdown reads the same date); `nil` when no countdown runs or it is paused.
    ///
    /// Schedule a reminder with it; to show the time left, read ``remainingSeconds``.
    public var endDate: Date? {
        let state = persisted.state
        guard case .running = state.phase else { return nil }
        return state.record.endDate
    }

    // MARK: Observing

    /// Calls `handler` with the seconds a screen shows at every change it should show — each
    /// tick, a start, an extension, a pause and a resume (the same seconds, now frozen or
    /// counting again: read ``isPaused``), and `0` when the countdown ends or is stopped —
    /// until the token is cancelled; in this process or followed from another one. A screen
    /// shows `seconds.formatted(.countdown)`, and "paused" when ``isPaused``.
    ///
    /// It observes ``ticks``, ``ends`` and ``pauses`` on this store's ``center``, so a screen
    /// given a stub follows the stub.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with the seconds a screen shows.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (Int) -> Void
    ) -> ObservationToken {
        CountdownPosts(ticks: ticks, ends: ends, pauses: pauses, center: center)
            .observeShown(on: delivery, timer: timer, handler)
    }

    /// Calls `handler` once per countdown, when it ends, until the token is cancelled: it
    /// observes ``ends`` on this store's ``center``.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with why the countdown ended.
    /// - Returns: A token that keeps the observer registered.
    public func observeEnds(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (CountdownEnd) -> Void
    ) -> ObservationToken {
        ends.observe(center: center, on: delivery, handler)
    }

    // MARK: Changing

    /// Starts a countdown of `duration`, replacing any running one, and throws when it could
    /// not be saved: then nothing changed, in this process or on disk.
    ///
    /// ```swift
    /// do {
    ///     try arrival.start(duration: .seconds(15 * 60))
    /// } catch {
    ///     print("The countdown did not start: \(error)")   // the folder is read-only, the disk is full…
    /// }
    /// ```
    ///
    /// - Parameter duration: Zero or less ends any running countdown at once (as ``stop()``
    ///   does); more than ``maximumDuration`` is clamped to it.
    /// - Throws: The `StorageError` of the failed save.
    public func start(duration: Duration) throws(StorageError) {
        guard duration > .zero else {
            try stop()
            return
        }
        try changeSaving { phase, now in phase = .running(deadline: now.advanced(by: Self.clamped(duration))) }
    }

    /// Ends the running countdown now, and throws when that could not be saved: then the
    /// countdown keeps running, in this process and on disk. Posts the end on ``ends`` if one
    /// was running.
    ///
    /// - Throws: The `StorageError` of the failed save.
    public func stop() throws(StorageError) {
        try changeSaving { phase, _ in phase = .idle }
    }

    /// Starts a countdown only if none is running or paused in any process, as one atomic step:
    /// of two concurrent calls, in one process or two, exactly one starts.
    ///
    /// - Parameter duration: Above zero; more than ``maximumDuration`` is clamped.
    /// - Throws: ``CountdownError/alreadyRunning(remainingSeconds:)``,
    ///   ``CountdownError/invalidDuration(_:)`` or ``CountdownError/storage(_:)``; then nothing
    ///   changed.
    public func startIfIdle(duration: Duration) throws(CountdownError) {
        guard duration > .zero else { throw .invalidDuration(duration) }
        let refusal: CountdownError?
        do throws(StorageError) {
            refusal =
                try changeSaving { phase, now in phase.startIfIdle(duration, at: now) } ?? nil
        } catch {
            throw .storage(error)
        }
        if let refusal { throw refusal }
    }

    /// Adds `duration` to the running countdown (or to a paused one's time left), and throws
    /// when that could not be saved: then nothing changed.
    ///
    /// - Parameter duration: Zero or less changes nothing. The time left is clamped to
    ///   ``maximumDuration``.
    /// - Throws: The `StorageError` of the failed save.
    public func extend(by duration: Duration) throws(StorageError) {
        guard duration > .zero else { return }
        try changeSaving { phase, now in phase = phase.extended(by: duration, at: now) }
    }

    /// Pauses the running countdown (`true`: the time left freezes) or resumes a paused one
    /// (`false`: it runs on with the time it had left), and throws when that could not be
    /// saved: then nothing changed, in this process or on disk.
    ///
    /// ```swift
    /// try countdown.setPaused(true)    // the screen shows the time left, frozen
    /// try countdown.setPaused(false)   // and it counts down again
    /// ```
    ///
    /// - Parameter paused: Whether the countdown should be paused. Pausing a countdown that
    ///   does not run, or resuming one that is not paused, changes nothing.
    /// - Throws: The `StorageError` of the failed save.
    public func setPaused(_ paused: Bool) throws(StorageError) {
        try changeSaving { phase, now in phase = phase.pausing(paused, at: now) }
    }

    static func clamped(_ duration: Duration) -> Duration {
        min(duration, maximumDuration)
    }
}

/// A countdown store takes part in Swift Observation: reading ``CountdownStore/remainingSeconds``,
/// ``CountdownStore/isRunning`` or ``CountdownStore/isPaused`` inside `withObservationTracking`
/// (a SwiftUI `body`) registers a dependency. `onChange` runs once per change of the shown
/// second — just before the ``CountdownStore/ticks`` post carrying the same value, on the
/// countdown's task (on Linux, for the system clocks, the process's ticker thread) — and at
/// start, stop, extension, pause and resume (on the thread that made the change; a pause or a
/// resume just before its ``CountdownStore/pauses`` post).
extension CountdownStore: Observable {}
