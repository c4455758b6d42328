import Foundation
import Observation
import SingletonStoresLocking
import StoreObservation
import Timers

/// A countdown every instance of a service shows, on a storage reached over a network — a
/// database several machines share: read from memory, changed with `try await`, followed live.
///
/// ```swift
/// let boost = try await SharedCountdownStore(key: "boost", storage: storage)
/// try await boost.start(duration: .seconds(30 * 60))   // every instance shows it now
/// let token = boost.observe { seconds in
///     print(seconds.formatted(.countdown))              // "29:59", "29:58", …
/// }
/// let shown = boost.remainingSeconds                    // from memory, never waits
/// ```
///
/// It is a ``CountdownStore`` for an ``AsyncStoreStorage``, with the differences that waiting on
/// a network calls for:
///
/// - **Loaded before it exists.** Its initializer reads the countdown and throws when that
///   fails — the server can't be reached, say — so a countdown that exists shows what the
///   storage holds, never "no countdown" passed off as the truth.
/// - **No blocking change.** ``start(duration:)``, ``stop()``, ``startIfIdle(duration:)``,
///   ``extend(by:)`` and ``setPaused(_:)`` are `async`: each is decided under the document's lock
///   — held across every machine that shares the storage — from what the storage holds then.
/// - **Followed live.** A countdown another instance starts, extends, pauses, resumes or stops
///   is shown here with the same posts as a change made here.
///
/// Its document is the one ``CountdownStore`` writes (the wall-clock end of a running countdown,
/// or the time left of a paused one), so the two read each other's countdowns. Each instance
/// counts down on its own monotonic clock from the end date it read: machines whose wall clocks
/// disagree by a second show the same countdown a second apart. A countdown that runs out is
/// not written again: an end in the past reads as no countdown everywhere.
///
/// Changes post on ``ticks``, ``ends`` and ``pauses`` to ``center`` and take part in Swift
/// Observation, as ``CountdownStore``'s do. A countdown that is released stops, silently, and
/// stops following the storage.
public final class SharedCountdownStore: Sendable {
    /// The longest countdown: 100 years. Longer durations are clamped to it.
    public static let maximumDuration = CountdownTimer.maximumDuration

    /// The document's name in the storage.
    public let key: String
    /// The channel each change of the shown seconds is posted on (the seconds are also the
    /// notification's `object`).
    public let ticks: NotificationChannel<Int>
    /// The channel the end of each countdown is posted on, once per instance showing it.
    public let ends: NotificationChannel<CountdownEnd>
    /// The channel each pause (`true`) and resume (`false`) is posted on, once, made here or
    /// followed from another instance.
    public let pauses: NotificationChannel<Bool>
    /// The notification center ``ticks``, ``ends`` and ``pauses`` are posted to.
    public let center: NotificationCenter

    let timer: CountdownTimer
    private let wallClock: WallClock
    private let bootClock: BootClock
    /// The record as the storage holds it, followed live; its changes reach ``show(_:)`` in the
    /// order they were committed.
    private let values: SharedValueStore<CountdownRecord>
    /// The record shown and where this process's countdown is for it: a phase decided here is
    /// kept while the storage still holds the record it was written as.
    private let shown: Locked<CountdownState>
    /// The state the last change made here decided, for ``show(_:)`` to keep its phase.
    private let decided = Locked<CountdownState?>(nil)
    private let commits = Locked<ObservationToken?>(nil)
    // Swift Observation: `remainingSeconds` (and so `isRunning`) and `isPaused` register here.
    private let registrar = ObservationRegistrar()

    /// A countdown on the document `key` of `storage`, read now; a countdown recorded there,
    /// running or paused, is resumed.
    ///
    /// - Parameters:
    ///   - key: The document's name: 1–120 letters, digits, `.`, `_` or `-`.
    ///   - clock: The monotonic clock the countdown runs on; a `ManualClock` (from Timers) in tests.
    ///   - wallClock: The wall clock the stored end date is read and written with.
    ///   - storage: Where the document lives.
    ///   - ticks: The channel each change of the shown seconds is posted on;
    ///     `SingletonStores.SharedCountdownStore.<key>.time` by default.
    ///   - ends: The channel each end is posted on;
    ///     `SingletonStores.SharedCountdownStore.<key>.ended` by default.
    ///   - pauses: The channel each pause and resume is posted on;
    ///     `SingletonStores.SharedCountdownStore.<key>.paused` by default.
    ///   - center: Where changes are posted; `.default` by default.
    ///   - follows: Whether to follow other instances through the storage's watch (`true` by
    ///     default).
    ///   - reportIssue: Receives problems met while following and a bad document set aside;
    ///     prints to standard error by default.
    /// - Throws: ``StorageError`` when the document could not be read (the countdown does not
    ///   exist then): ``StorageError/backendUnreachable(backend:reason:)`` when the server can't
    ///   be reached, ``StorageError/invalidKey(_:reason:)`` for a bad `key`.
    public init(
        key: String,
        clock: some Clock<Duration> = ContinuousClock(),
        wallClock: WallClock = .system,
        storage: any AsyncStoreStorage,
        ticks: NotificationChannel<Int>? = nil,
        ends: NotificationChannel<CountdownEnd>? = nil,
        pauses: NotificationChannel<Bool>? = nil,
        center: NotificationCenter = .default,
        follows: Bool = true,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) async throws(StorageError) {
        let ticks = ticks ?? NotificationChannel("SingletonStores.SharedCountdownStore.\(key).time")
        let ends = ends ?? NotificationChannel("SingletonStores.SharedCountdownStore.\(key).ended")
        let document = StoreDocument(key: key, default: CountdownRecord.none, identity: "CountdownRecord")
        // The store's changes reach this countdown alone, on a center of its own.
        values = try await SharedValueStore(
            document, storage: storage, center: NotificationCenter(), follows: follows, reportIssue: reportIssue)
        self.key = key
        self.ticks = ticks
        self.ends = ends
        self.pauses = pauses ?? NotificationChannel("SingletonStores.SharedCountdownStore.\(key).paused")
        self.center = center
        self.wallClock = wallClock
        bootClock = wallClock.bootClock
        let owner = LateBound<SharedCountdownStore>()
        let tickPosts = PayloadPostBuffer()
        timer = CountdownTimer(clock: clock) { event in
            let store = owner.target
            switch event {
            case .tick(let seconds):
                store?.announce(\.remainingSeconds)
                tickPosts.post(seconds, object: seconds, on: ticks, center: center)
            case .ended(let reason):
                if reason == .stopped { store?.announce(\.remainingSeconds) }
                ends.post(reason == .finished ? .finished : .stopped, center: center)
            }
        }
        let record = values.value
        if record.endsBeyondLongestCountdown(wallClock: wallClock, bootClock: bootClock) {
            reportIssue(
                .unusableStoredValue(
                    key: key,
                    message:
                        "its countdown ends further ahead than the longest countdown (100 years), which no countdown writes; "
                        + "it is shown as no countdown, and the next start replaces it."))
        }
        let phase = CountdownState.phase(of: record, at: timer.now, wallClock: wallClock, bootClock: bootClock)
        shown = Locked(CountdownState(record: record, phase: phase))
        _ = owner.bind(self)
        timer.move(to: phase)
        commits.withLock { $0 = values.observe { change in owner.target?.show(change.new) } }
        // A change followed while the countdown was being made is shown now.
        let current = values.value
        if current != record { show(current) }
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

    /// When the running countdown ends on the wall clock, as the storage records it (every
    /// instance reads the same date); `nil` when no countdown runs or it is paused.
    public var endDate: Date? {
        let state = shown.withLock { $0 }
        guard case .running = state.phase, timer.isRunning, !timer.isPaused else { return nil }
        return state.record.endDate
    }

    // MARK: Observing

    /// Calls `handler` with the seconds a screen shows at every change it should show — each
    /// tick, a start, an extension, a pause and a resume, and `0` when the countdown ends or is
    /// stopped — until the token is cancelled; made here or followed from another instance.
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

    /// Starts a countdown of `duration` on every instance, replacing any running one.
    ///
    /// - Parameter duration: Zero or less ends any running countdown at once (as ``stop()``
    ///   does); more than ``maximumDuration`` is clamped to it.
    /// - Throws: The ``StorageError`` of a change that was not made; then nothing changed.
    public func start(duration: Duration) async throws(StorageError) {
        guard duration > .zero else {
            try await stop()
            return
        }
        try await change { phase, now in phase = .running(deadline: now.advanced(by: CountdownStore.clamped(duration))) }
    }

    /// Ends the running countdown on every instance. Posts the end on ``ends`` if one was running.
    ///
    /// - Throws: The ``StorageError`` of a change that was not made; then the countdown runs on.
    public func stop() async throws(StorageError) {
        try await change { phase, _ in phase = .idle }
    }

    /// Starts a countdown only if none is running or paused on any instance, decided under the
    /// document's lock: of two concurrent calls, on one machine or two, exactly one starts.
    ///
    /// - Parameter duration: Above zero; more than ``maximumDuration`` is clamped.
    /// - Throws: ``CountdownError/alreadyRunning(remainingSeconds:)``,
    ///   ``CountdownError/invalidDuration(_:)`` or ``CountdownError/storage(_:)``; then nothing
    ///   changed.
    public func startIfIdle(duration: Duration) async throws(CountdownError) {
        guard duration > .zero else { throw .invalidDuration(duration) }
        let refusal: CountdownError?
        do throws(StorageError) {
            refusal = try await change { phase, now in phase.startIfIdle(duration, at: now) }
        } catch {
            throw .storage(error)
        }
        if let refusal { throw refusal }
    }

    /// Adds `duration` to the running countdown (or to a paused one's time left).
    ///
    /// - Parameter duration: Zero or less changes nothing. The time left is clamped to
    ///   ``maximumDuration``.
    /// - Throws: The ``StorageError`` of a change that was not made; then nothing changed.
    public func extend(by duration: Duration) async throws(StorageError) {
        guard duration > .zero else { return }
        try await change { phase, now in phase = phase.extended(by: duration, at: now) }
    }

    /// Pauses the running countdown (`true`: the time left freezes on every instance) or resumes
    /// a paused one (`false`: it runs on with the time it had left).
    ///
    /// - Parameter paused: Whether the countdown should be paused. Pausing a countdown that
    ///   does not run, or resuming one that is not paused, changes nothing.
    /// - Throws: The ``StorageError`` of a change that was not made; then nothing changed.
    public func setPaused(_ paused: Bool) async throws(StorageError) {
        try await change { phase, now in phase = phase.pausing(paused, at: now) }
    }

    /// Reads the countdown again and shows what another instance changed.
    ///
    /// - Throws: ``StorageError`` when it could not be read; the countdown is left as it was.
    public func reload() async throws(StorageError) {
        try await values.reload()
    }

    /// Stops following other instances. The countdown runs on and can still be changed.
    public func stopFollowing() {
        values.stopFollowing()
    }

    // MARK: Machinery

    /// Moves the phase in one transaction on the storage: `decide` is given the phase of the
    /// record the storage holds now (the phase shown here while that is the record shown) and
    /// may run again.
    @discardableResult
    private func change<Outcome>(
        _ decide: (inout CountdownState.Phase, CountdownTimer.Instant) -> Outcome
    ) async throws(StorageError) -> Outcome {
        try await values.update { (record: inout CountdownRecord) -> Outcome in
            let now = timer.now
            let current = phase(of: record, at: now)
            var next = current
            let outcome = decide(&next, now)
            if next != current {
                record = CountdownState.record(
                    of: next, at: now, wallClock: wallClock, bootClock: bootClock, settled: record.settledGrantID)
            }
            decided.withLock { $0 = CountdownState(record: record, phase: next) }
            return outcome
        }
    }

    /// The phase of `record` here: the phase shown or last decided while `record` is theirs,
    /// else the one it describes at `now`.
    private func phase(of record: CountdownRecord, at now: CountdownTimer.Instant) -> CountdownState.Phase {
        for known in [decided.withLock { $0 }, shown.withLock { $0 }] {
            if let known, known.record == record, let phase = known.phase { return phase }
        }
        return CountdownState.phase(of: record, at: now, wallClock: wallClock, bootClock: bootClock)
    }

    /// Shows `record`, committed here or by another instance: moves the countdown, and announces
    /// and posts a pause or a resume. Called in commit order.
    private func show(_ record: CountdownRecord) {
        let target = phase(of: record, at: timer.now)
        shown.withLock { $0 = CountdownState(record: record, phase: target) }
        // A decision is needed only until its commit is shown; after that it could only be stale.
        decided.withLock { $0 = nil }
        let wasPaused = timer.isPaused
        timer.move(to: target)
        let isPaused = timer.isPaused
        guard isPaused != wasPaused else { return }
        announce(\.isPaused)
        announce(\.remainingSeconds)
        guard isPaused || timer.isRunning else { return }
        pauses.post(isPaused, center: center)
    }

    /// Tells Swift Observation that `keyPath` changed (after the change, outside every lock).
    private func announce<Value>(_ keyPath: KeyPath<SharedCountdownStore, Value>) {
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }
}

/// A shared countdown takes part in Swift Observation: reading
/// ``SharedCountdownStore/remainingSeconds``, ``SharedCountdownStore/isRunning`` or
/// ``SharedCountdownStore/isPaused`` inside `withObservationTracking` (a SwiftUI `body`) registers
/// a dependency, announced at each change of the shown second, and at start, stop, extension,
/// pause and resume.
extension SharedCountdownStore: Observable {}
