import Foundation
import Observation
@_spi(FaultInjection) import SingletonStores
import SingletonStoresLocking
import StoreObservation
import Timers

/// A countdown every screen and every process agrees on, persisted so that it survives a
/// relaunch: the building block of ``BoostTimeManager``, for countdowns of your own.
///
/// ```swift
/// let premium = CountdownStore(key: "premium")          // <data folder>/premium.json
/// try premium.start(duration: 30 * 60)                    // a 30-minute premium boost
/// let token = premium.ticks.observe { seconds in          // every change of the shown seconds
///     print(seconds.formatted(.countdown))                // "29:59", "29:58", …
/// }
/// let shown = premium.remainingSeconds                    // the same value, from any thread
/// ```
///
/// One deadline-based `CountdownTimer` drives it; each change of the shown seconds is posted
/// once on ``ticks`` (with the seconds as the notification's `object` for classic observers) and
/// announced to Swift Observation, and each countdown's end is posted once on ``ends``.
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
    public let ends: NotificationChannel<BoostEnd>

    private let timer: CountdownTimer
    private let journal: BoostJournal
    private let wallClock: WallClock
    private let bootClock: BootClock
    private let model: Locked<BoostModel>
    // Swift Observation: `remainingSeconds` (and so `isRunning`) and `isPaused` register
    // here; the timer's reports and pause and resume announce through it.
    private let registrar = ObservationRegistrar()
    // Keep the document (and the ledger, for grants) watched while the store lives.
    private let watches: [StorageWatch]

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
        ends: NotificationChannel<BoostEnd>? = nil,
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            key: key, grantsKey: nil, clock: clock, wallClock: wallClock, bootClock: wallClock.bootClock, storage: storage,
            ticks: ticks ?? NotificationChannel("SingletonStores.CountdownStore.\(key).time"),
            ends: ends ?? NotificationChannel("SingletonStores.CountdownStore.\(key).ended"),
            center: center, watching: watching, reportIssue: reportIssue)
    }

    /// Creates a countdown that also reads the newest ``BoostGrant`` of the purchase ledger
    /// under `grantsKey` (the countdown's items), and the device's boot time line from `bootClock`.
    package init(
        key: String,
        grantsKey: String?,
        clock: some Clock<Duration>,
        wallClock: WallClock,
        bootClock: BootClock,
        storage: any StoreStorage,
        ticks: NotificationChannel<Int>,
        ends: NotificationChannel<BoostEnd>,
        center: NotificationCenter,
        watching: StorageWatching,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void
    ) {
        self.key = key
        self.ticks = ticks
        self.ends = ends
        self.bootClock = bootClock
        let journal = BoostJournal(key: key, grantsKey: grantsKey, storage: storage, reportIssue: reportIssue)
        // The timer's and the watches' handlers are made before `self` exists; they reach the
        // store through this weak reference, set once the store is whole.
        let owner = LateBound<CountdownStore>()
        // Watch first, read second: a change written in between is caught up on at once.
        watches = [key, grantsKey].compactMap { $0 }.compactMap { key in
            (try? storage.watch(forKey: key, watching) { owner.targetForNews()?.followDisk() }) ?? nil
        }
        self.journal = journal
        self.wallClock = wallClock
        timer = CountdownTimer(clock: clock) { event in
            let manager = owner.target
            switch event {
            case .tick(let seconds):
                // Observation first, then the post: both carry the same shown value.
                manager?.announce(\.remainingSeconds)
                ticks.post(seconds, object: seconds, center: center)
            case .ended(let reason):
                // A stop reports no tick(0), so the shown value's change is announced here.
                if reason == .stopped { manager?.announce(\.remainingSeconds) }
                manager?.clearIfEnded()
                ends.post(reason == .finished ? .finished : .stopped, center: center)
            }
        }
        let record = journal.current()
        let now = timer.now
        model = Locked(
            BoostModel(
                phase: BoostModel.phase(of: record, at: now, wallClock: wallClock, bootClock: bootClock), committed: record))
        apply(model.withLock { $0.phase })
        if owner.bind(self) { followDisk() }
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

    // MARK: Changing

    /// Starts a countdown of `duration` seconds, replacing any running one.
    ///
    /// - Parameter duration: Seconds. Zero or less ends any running countdown at once; more than
    ///   ``maximumDuration`` is clamped to it.
    public func startCountDown(duration: Int) {
        guard duration > 0 else {
            stopCountDown()
            return
        }
        change { phase, now in phase = .running(deadline: now.advanced(by: Self.clamped(duration))) }
    }

    /// Starts a countdown of `duration` seconds, replacing any running one, and throws when it could
    /// not be saved: then nothing changed, in this process or on disk.
    ///
    /// ``startCountDown(duration:)`` reports a failed save to `reportIssue` and carries on; use
    /// this one where the user must be told that the countdown did not start:
    ///
    /// ```swift
    /// do {
    ///     try premium.start(duration: 15 * 60)
    /// } catch {
    ///     print("The countdown did not start: \(error)")   // the folder is read-only, the disk is full…
    /// }
    /// ```
    ///
    /// - Parameter duration: Seconds. Zero or less ends any running countdown at once (as
    ///   ``stop()`` does); more than ``maximumDuration`` is clamped to it.
    /// - Throws: The `StorageError` of the failed save.
    public func start(duration: Int) throws(StorageError) {
        guard duration > 0 else {
            try stop()
            return
        }
        try changeSaving { phase, now in phase = .running(deadline: now.advanced(by: Self.clamped(duration))) }
    }

    /// Ends the running countdown now, and throws when that could not be saved: then the countdown
    /// keeps running, in this process and on disk. Posts
    /// the end on ``ends`` if one was running.
    ///
    /// ``stopCountDown()`` reports a failed save to `reportIssue` instead.
    ///
    /// - Throws: The `StorageError` of the failed save.
    public func stop() throws(StorageError) {
        try changeSaving { phase, _ in phase = .idle }
    }

    /// Starts a countdown only if none is running or paused in any process, as one atomic step: of
    /// two concurrent calls, in one process or two, exactly one starts.
    ///
    /// - Parameter duration: Seconds, above zero; more than ``maximumDuration`` is clamped.
    /// - Throws: ``BoostError/alreadyRunning(remainingSeconds:)`` or
    ///   ``BoostError/invalidDuration(_:)``; then nothing changed.
    public func startCountDownIfIdle(duration: Int) throws(BoostError) {
        guard duration > 0 else { throw .invalidDuration(duration) }
        let refusal = change { phase, now -> BoostError? in
            if let running = phase.shownSeconds(at: now) { return .alreadyRunning(remainingSeconds: running) }
            phase = .running(deadline: now.advanced(by: Self.clamped(duration)))
            return nil
        }
        if let refusal = refusal ?? nil { throw refusal }
    }

    /// Starts a countdown of `duration` seconds paid for by `payment` — spending one item, say — as
    /// one durable step, only if no countdown is running or paused in any process.
    ///
    /// The decision is taken under the document's lock from what is on disk. `payment`
    /// runs under that lock with the ``BoostGrant`` describing the countdown; it should record the
    /// grant in the same write that spends the item (``PurchaseManager`` writes it into the
    /// ledger entry, after checking under the ledger's lock that no other item was spent on a
    /// countdown since this decision — should the document's lock file be removed meanwhile,
    /// the decision is taken again). From the moment `payment` returns, the countdown is the
    /// grant's: the grant carries its end on the boot time line and its length, so a later
    /// launch that finds only the grant (killed before the document was written, or the write
    /// failed) shows it as this store would have written it, and a failed write of the
    /// document is reported to `reportIssue`, not thrown — the item was spent and its countdown
    /// runs. That holds when the ledger is in this store's storage (the default); with
    /// separate storages the countdown's own record is what a later launch reads.
    ///
    /// - Parameters:
    ///   - duration: Seconds, above zero; more than ``maximumDuration`` is clamped.
    ///   - payment: Spends what the countdown costs, or throws to refuse it. It must not post or
    ///     touch the countdown.
    /// - Throws: ``PurchaseError/boostNotStarted(_:)`` when a countdown is running, or what
    ///   `payment` threw, or the storage's error when the decision could not be read or taken;
    ///   then nothing was spent.
    public func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        guard duration > 0 else { throw .boostNotStarted(.invalidDuration(duration)) }
        let length = Self.clamped(duration)
        // The grant the item was spent on, once it was: from then on the countdown is that
        // grant's, whatever happens to the write of this record.
        var paid: BoostGrant?
        var attempt = 0
        while true {
            attempt += 1
            var failure: PurchaseError?
            var check: BoostSpendCheck?
            do throws(StorageError) {
                try transact {
                    (
                        record: inout BoostRecord, phase: BoostModel.Phase, now: CountdownTimer.Instant,
                        latestGrantID: String?
                    ) throws(StorageError) -> BoostModel.Phase in
                    // Run again after the item was spent (the lock file was removed or replaced
                    // before this record was written): the disk holds the grant, which is the
                    // countdown now; it is adopted and written as it is.
                    if paid != nil { return phase }
                    failure = nil
                    if let running = phase.shownSeconds(at: now) {
                        failure = .boostNotStarted(.alreadyRunning(remainingSeconds: running))
                        return phase
                    }
                    var started = BoostRecord.running(
                        endDate: wallClock.date(after: length), left: length, bootClock: bootClock, settled: nil)
                    var grant = BoostGrant(id: UUID().uuidString, record: started)
                    // Only a countdown that reads the ledger's grants decides from them.
                    if journal.grantsKey != nil {
                        let spendCheck = BoostSpendCheck(latestGrantID: latestGrantID)
                        grant.spendCheck = spendCheck
                        check = spendCheck
                    }
                    do throws(PurchaseError) {
                        try payment(grant)
                    } catch {
                        failure = error
                        return phase
                    }
                    grant.spendCheck = nil
                    paid = grant
                    FaultInjection.reach(.boostItemSpent)
                    started.settledGrantID = grant.id
                    record = started
                    return .running(deadline: now.advanced(by: length))
                }
            } catch {
                guard paid != nil else { throw failure ?? .storage(error) }
                // Spent, and the grant is on disk: the countdown runs from it. Say so, and show it.
                journal.reportIssue(.countdownRunsFromItsGrant(key: key, error))
                followDisk()
                return
            }
            if paid != nil { return }
            // Another item was spent on a countdown after this decision: decide again, from disk.
            if check?.isStale == true, attempt < Self.spendAttempts { continue }
            if let failure { throw failure }
            return
        }
    }

    /// How many times an item use decides again when another item was spent meanwhile.
    private static let spendAttempts = 8

    /// Ends the running countdown now; posts the end on ``ends`` if one was running.
    public func stopCountDown() {
        change { phase, _ in phase = .idle }
    }

    /// Adds `seconds` to the running countdown (or to a paused one's time left).
    ///
    /// - Parameter seconds: Seconds to add; zero or less changes nothing. The time left is
    ///   clamped to ``maximumDuration``.
    public func extend(by seconds: Int) {
        guard seconds > 0 else { return }
        change { phase, now in
            switch phase {
            case .running(let deadline):
                let left = max(now.duration(to: deadline), .zero)
                phase = .running(deadline: now.advanced(by: min(left + Self.clamped(seconds), Self.maximumDuration)))
            case .paused(let remaining):
                phase = .paused(remaining: min(remaining + Self.clamped(seconds), Self.maximumDuration))
            case .idle:
                break
            }
        }
    }

    /// Pauses the running countdown: the time left freezes until ``resume()``.
    public func pause() {
        change { phase, now in
            guard case .running(let deadline) = phase else { return }
            let left = now.duration(to: deadline)
            phase = left > .zero ? .paused(remaining: left) : .idle
        }
    }

    /// Resumes a paused countdown with the time it had left.
    public func resume() {
        change { phase, now in
            guard case .paused(let remaining) = phase else { return }
            phase = .running(deadline: now.advanced(by: remaining))
        }
    }

    /// When the running countdown ends on the wall clock, as recorded on disk (every process
    /// showing the countdown reads the same date); `nil` when no countdown runs or it is paused.
    ///
    /// Schedule a reminder with it; to show the time left, read ``remainingSeconds``.
    public var endDate: Date? {
        model.withLock { model -> Date? in
            guard case .running = model.phase else { return nil }
            return model.committed.endDate
        }
    }

    // MARK: Internals

    /// Adopts what another process wrote, if the disk no longer holds what this process last
    /// saw or wrote.
    ///
    /// Takes no file lock, so following never waits for another process (one that holds the
    /// lock may be stopped): documents are replaced atomically, so the read finds the last
    /// committed record. It adopts that record only if no transaction of this process began
    /// meanwhile; news that comes while one is under way is followed when it ends.
    private func followDisk() {
        let started = model.withLock { model -> UInt64? in
            guard model.transactionsUnderWay == 0 else {
                model.followAgain = true
                return nil
            }
            return model.ticketsIssued
        }
        guard let started else { return }
        let onDisk = journal.current()
        let now = timer.now
        let claimed = model.withLock { model -> Bool in
            guard model.committed != onDisk else { return false }
            guard model.transactionsUnderWay == 0, model.ticketsIssued == started else {
                model.followAgain = true
                return false
            }
            let phase = BoostModel.phase(of: onDisk, at: now, wallClock: wallClock, bootClock: bootClock)
            return model.finish(model.begin(phase, record: onDisk, movesCountdown: true))
        }
        if claimed { deliver() }
    }

    private static func clamped(_ seconds: Int) -> Duration {
        min(.seconds(seconds), maximumDuration)
    }

    /// Clears the record of a countdown that ran out here, unless the disk says another countdown has
    /// started since (which this process then shows).
    ///
    /// Never waits: while another process holds the lock, the record is left as it is — an
    /// end in the past reads as no countdown everywhere — and the countdown ends at once.
    private func clearIfEnded() {
        change(waits: false) { phase, now in
            if case .running(let deadline) = phase, deadline <= now { phase = .idle }
        }
    }

    /// Runs a change of the phase as one transaction on disk; storage failures are reported and
    /// leave everything as it was.
    ///
    /// - Parameter waits: Whether to wait for another process's lock (up to the storage's
    ///   timeout); when `false`, a held lock skips the change and returns `nil`.
    @discardableResult
    private func change<Outcome>(
        waits: Bool = true,
        _ decide: (inout BoostModel.Phase, CountdownTimer.Instant) -> Outcome
    ) -> Outcome? {
        do {
            return try changeSaving(waits: waits, decide)
        } catch {
            journal.reportIssue(.storageRecovered(error))
            return nil
        }
    }

    /// Runs a change of the phase as one transaction on disk; a storage failure is thrown and
    /// leaves everything as it was.
    @discardableResult
    private func changeSaving<Outcome>(
        waits: Bool = true,
        _ decide: (inout BoostModel.Phase, CountdownTimer.Instant) -> Outcome
    ) throws(StorageError) -> Outcome? {
        var outcome: Outcome?
        try transact(waits: waits) {
            (_: inout BoostRecord, phase: BoostModel.Phase, now: CountdownTimer.Instant, _: String?) -> BoostModel.Phase in
            var next = phase
            outcome = decide(&next, now)
            return next
        }
        return outcome
    }

    /// The transaction every change goes through.
    ///
    /// Under the document's lock: reads the record on disk; if another process changed
    /// it since this one last looked, adopts it; lets `decide` move the phase (and, for item
    /// spends, set the record itself); writes the record of the new phase. After the lock is
    /// released, the countdown is moved to the newest committed phase, in commit order, outside
    /// every lock (its posts may call back into this store).
    private func transact(
        waits: Bool = true,
        _ decide: (inout BoostRecord, BoostModel.Phase, CountdownTimer.Instant, _ latestGrantID: String?) throws(StorageError)
            -> BoostModel.Phase
    ) throws(StorageError) {
        model.withLock { $0.transactionsUnderWay += 1 }
        defer { if model.withLock({ $0.endTransaction() }) { followDisk() } }
        let committed = try journal.transaction(waits: waits) {
            (record: inout BoostRecord, latestGrantID: String?) throws(StorageError) -> BoostModel.Commit in
            let now = timer.now
            let onDisk = record
            let (current, adopted) = model.withLock { model -> (BoostModel.Phase, Bool) in
                // The disk is the truth; the monotonic phase is kept only while the disk still
                // holds what this process last saw or wrote.
                guard model.committed == onDisk else {
                    return (BoostModel.phase(of: onDisk, at: now, wallClock: wallClock, bootClock: bootClock), true)
                }
                return (model.phase, false)
            }
            let next = try decide(&record, current, now, latestGrantID)
            if record == onDisk, next != current {
                record = BoostModel.record(
                    of: next, at: now, wallClock: wallClock, bootClock: bootClock, settled: onDisk.settledGrantID)
            }
            return model.withLock { model in
                model.begin(next, record: record, movesCountdown: adopted || next != current)
            }
        }
        guard let commit = committed else { return }  // the lock was held; nothing changed
        let claimed = model.withLock { $0.finish(commit) }
        if claimed { deliver() }
    }

    /// Moves the countdown to each committed phase in turn, until none is left.
    private func deliver() {
        while true {
            let batch = model.withLock { $0.outbox.takeBatch() }
            if batch.isEmpty { return }
            batch.forEach(apply)
        }
    }

    /// Moves the countdown to `target` with the fewest changes: a new deadline is an extension
    /// (no end is reported for it), a stop reports the end once.
    /// Tells Swift Observation that `keyPath` changed (after the change, outside every lock).
    private func announce<Value>(_ keyPath: KeyPath<CountdownStore, Value>) {
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }

    private func apply(_ target: BoostModel.Phase) {
        let wasPaused = timer.isPaused
        move(to: target)
        if timer.isPaused != wasPaused {
            announce(\.isPaused)
            announce(\.remainingSeconds)
        }
    }

    private func move(to target: BoostModel.Phase) {
        switch target {
        case .idle:
            timer.stop()
        case .running(let deadline):
            if timer.isPaused { timer.resume() }
            if timer.isRunning, let current = timer.deadline {
                let shift = current.duration(to: deadline)
                if shift != .zero { timer.extend(by: shift) }
            } else {
                timer.start(duration: timer.now.duration(to: deadline))
            }
        case .paused(let remaining) where remaining <= .zero:
            timer.stop()
        case .paused(let remaining):
            if timer.isRunning { timer.pause() }
            if timer.isPaused {
                let shift = remaining - timer.remaining
                if shift != .zero { timer.extend(by: shift) }
            } else {
                timer.start(duration: remaining)
                timer.pause()
            }
        }
    }
}

/// A countdown store takes part in Swift Observation: reading ``remainingSeconds``, ``isInBoostTime``
/// or ``isPaused`` inside `withObservationTracking` (a SwiftUI `body`) registers a dependency.
/// `onChange` runs once per change of the shown second — just before the
/// `.boostTimeNotification` post carrying the same value, on the countdown's task (on Linux, for
/// the system clocks, the process's ticker thread) — and at
/// start, stop, pause and resume (on the thread that made the change).
extension CountdownStore: Observable {}
