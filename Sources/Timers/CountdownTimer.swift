import SingletonStoresLocking
/// One countdown that any number of screens read, ticking exactly when the shown second changes.
///
/// A screen that runs its own repeating timer and decrements its own counter drifts: two screens
/// started 400 ms apart show 12:34 and 12:35 at the same moment. A `CountdownTimer` keeps a single
/// *deadline* instead. Every read derives the remaining time from it, and the timer sleeps
/// until the next instant at which the shown value changes (`deadline - n s`), so
/// errors never accumulate and every reader agrees:
///
/// ```swift
/// let timer = CountdownTimer(clock: ContinuousClock()) { event in
///     switch event {
///     case .tick(let seconds): print(seconds.formatted(.countdown)) // "01:30", "01:29", …, "00:00"
///     case .ended(let reason): print("boost over:", reason)          // .finished
///     }
/// }
/// timer.start(duration: .seconds(90))
/// print(timer.shownSeconds)  // 90, from any thread, at any time
/// ```
///
/// In tests, drive it with a ``ManualClock``: advancing the clock by 90 seconds delivers the ticks
/// 89 through 0, each with the clock at its exact instant, before `advance` returns.
///
/// ```swift
/// let clock = ManualClock()
/// let events = Mutex<[CountdownTimer.Event]>([])
/// let timer = CountdownTimer(clock: clock) { event in events.withLock { $0.append(event) } }
/// timer.start(duration: .seconds(90))
/// await clock.advance(by: .seconds(90))  // events: tick(90), tick(89), …, tick(0), ended(.finished)
/// ```
///
/// ## Events
/// The `onChange` handler receives ``Event/tick(_:)`` whenever the shown value changes (and once at
/// ``start(duration:)`` with the initial value) and ``Event/ended(_:)`` exactly once per countdown
/// that ends. Events are delivered one at a time, in the order the changes happened, never under
/// a lock and never concurrently. A change made from inside the handler (calling ``stop()``, say)
/// has its events delivered right after the handler returns. A countdown replaced by a new
/// ``start(duration:)`` reports nothing more.
///
/// ## Limits
/// Durations are clamped to `0 ... maximumDuration` (about 100 years): a zero or negative
/// duration ends the countdown at once, a larger one counts down from ``maximumDuration``.
/// Nothing traps on extreme input.
///
/// A running countdown keeps its timer alive (its task holds it) until the countdown ends or is
/// stopped, so its end is reported even if nobody else holds the timer.
public final class CountdownTimer: Sendable {
    /// A change the timer reports to its `onChange` handler.
    public enum Event: Hashable, Sendable {
        /// The shown value (remaining seconds, rounded up) is now this many seconds.
        case tick(Int)
        /// The countdown is over, for the given reason. Reported exactly once per countdown.
        case ended(EndReason)
    }

    /// Why a countdown ended.
    public enum EndReason: Hashable, Sendable {
        /// It reached zero: by running out, by ``CountdownTimer/shorten(by:)``, or by a start
        /// with a duration of zero or less.
        case finished
        /// ``CountdownTimer/stop()`` ended it before it reached zero.
        case stopped
    }

    /// The longest countdown a timer runs: 100 years of 365 days. Longer durations are clamped
    /// to it.
    public static let maximumDuration = Duration.seconds(100 * 365 * 24 * 60 * 60)

    private let clock: ErasedClock
    private let onChange: @Sendable (Event) -> Void
    private let state = Locked(State())

    /// Creates an idle timer that measures time on `clock` and reports changes to `onChange`.
    ///
    /// - Parameters:
    ///   - clock: The clock to count down on: `ContinuousClock()` in production (it keeps
    ///     counting while the device sleeps and ignores changes of the wall-clock time), a
    ///     ``ManualClock`` in tests.
    ///   - onChange: Called with each ``Event``, never under a lock. Keep it short and never block
    ///     in it: it runs on the timer's task or on the thread that caused the change. On Linux,
    ///     timers on `ContinuousClock` or `SuspendingClock` tick on one thread they all share,
    ///     which wakes once per change instead of a task hopping through the concurrency
    ///     runtime.
    public init(
        clock: some Clock<Duration>,
        onChange: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.clock = ErasedClock(clock)
        self.onChange = onChange
    }

    // MARK: Reading

    /// The timer's current time, on the clock it was created with.
    public var now: Instant {
        Instant(offset: clock.now())
    }

    /// The instant the running countdown reaches zero; `nil` when no countdown is running
    /// (idle, paused, ended).
    public var deadline: Instant? {
        state.withLock { $0.phase.countdown?.deadline }
    }

    /// The time left: up to the deadline while running, frozen while paused, zero otherwise.
    public var remaining: Duration {
        let now = self.now
        return state.withLock { $0.phase.remaining(at: now) }
    }

    /// The whole seconds a screen shows: ``remaining`` rounded up, so `0` appears exactly at the
    /// deadline.
    public var shownSeconds: Int {
        remaining.secondsRoundedUp
    }

    /// Whether a countdown is counting down: started, not paused, deadline not yet reached.
    public var isRunning: Bool {
        let now = self.now
        return state.withLock { $0.phase.countdown.map { !$0.hasEnded(at: now) } ?? false }
    }

    /// Whether a countdown is paused (see ``pause()``).
    public var isPaused: Bool {
        state.withLock { $0.phase.isPaused }
    }

    // MARK: Changing

    /// Starts a countdown of `duration`, replacing the current one if there is one.
    ///
    /// Reports ``Event/tick(_:)`` with the initial shown value at once (90 for 90 seconds), then
    /// each change at its exact instant, down to 0 at the deadline, then
    /// ``Event/ended(_:)`` with ``EndReason/finished``. A replaced countdown reports nothing more:
    /// its pending ticks are dropped and it gets no end event.
    ///
    /// - Parameter duration: How long to count down. Zero or less reports `tick(0)` and
    ///   `ended(.finished)` at once; more than ``maximumDuration`` is clamped to it.
    public func start(duration: Duration) {
        let duration = Self.clamped(duration)
        transaction { state, now, effects in
            Self.begin(duration, in: &state, at: now, effects: &effects)
        }
    }

    /// Starts a countdown of `duration` only if none is running or paused, as one atomic step.
    ///
    /// Of two concurrent calls on an idle timer, exactly one starts. Reports as
    /// ``start(duration:)`` does when it starts, and nothing when it does not.
    ///
    /// - Parameter duration: How long to count down; clamped as in ``start(duration:)``.
    /// - Returns: Whether the countdown started.
    @discardableResult
    public func startIfIdle(duration: Duration) -> Bool {
        let duration = Self.clamped(duration)
        return transaction { state, now, effects -> Bool in
            if let countdown = state.phase.countdown, !countdown.hasEnded(at: now) { return false }
            if state.phase.isPaused { return false }
            Self.begin(duration, in: &state, at: now, effects: &effects)
            return true
        }
    }

    /// Replaces the current countdown with one of `duration` from `now`.
    private static func begin(_ duration: Duration, in state: inout State, at now: Instant, effects: inout Effects) {
        state.replaceCountdown(effects: &effects)
        let countdown = Countdown(deadline: now.advanced(by: duration))
        let shown = countdown.shownSeconds(at: now)
        state.report(shown)
        if shown == 0 {
            state.finish(.finished, effects: &effects)
        } else {
            state.phase = .running(countdown)
            effects.launch = state.epoch
        }
    }

    /// Moves the deadline of the running or paused countdown later by `duration`.
    ///
    /// Reports the new shown value if it changed. A negative duration shortens (see
    /// ``shorten(by:)``); the result is clamped to ``maximumDuration``. Does nothing when no
    /// countdown is running or paused.
    ///
    /// - Parameter duration: How much time to add.
    public func extend(by duration: Duration) {
        transaction { state, now, effects in
            let remaining = state.phase.remaining(at: now)
            switch state.phase {
            case .running:
                guard remaining > .zero else {
                    state.finish(.finished, effects: &effects)
                    return
                }
                let newRemaining = Self.clamped(remaining.saturatingAdding(duration))
                let countdown = Countdown(deadline: now.advanced(by: newRemaining))
                state.report(countdown.shownSeconds(at: now))
                if newRemaining == .zero {
                    state.finish(.finished, effects: &effects)
                } else {
                    state.phase = .running(countdown)
                    state.reschedule(effects: &effects)
                }
            case .paused:
                let newRemaining = Self.clamped(remaining.saturatingAdding(duration))
                state.report(newRemaining.secondsRoundedUp)
                if newRemaining == .zero {
                    state.finish(.finished, effects: &effects)
                } else {
                    state.phase = .paused(remaining: newRemaining)
                }
            case .idle, .ended:
                return
            }
        }
    }

    /// Moves the deadline of the running or paused countdown earlier by `duration`.
    ///
    /// Reports the new shown value if it changed. Shortening to zero or past it ends the countdown
    /// at once: `tick(0)`, then `ended(.finished)`. A negative duration extends. Does nothing when
    /// no countdown is running or paused.
    ///
    /// - Parameter duration: How much time to take away.
    public func shorten(by duration: Duration) {
        extend(by: Duration.zero.saturatingSubtracting(duration))
    }

    /// Freezes the running countdown: the remaining time stops decreasing and no ticks arrive
    /// until ``resume()``.
    ///
    /// Reports nothing (the shown value does not change). Does nothing unless a countdown is
    /// running; a countdown whose deadline has already passed ends instead.
    public func pause() {
        transaction { state, now, effects in
            guard case .running(let countdown) = state.phase else { return }
            let remaining = countdown.remaining(at: now)
            guard remaining > .zero else {
                state.finish(.finished, effects: &effects)
                return
            }
            state.phase = .paused(remaining: remaining)
            state.stopTask(effects: &effects)
        }
    }

    /// Continues a paused countdown with a new deadline: now plus the frozen remaining time.
    ///
    /// Reports nothing at once (the shown value is the one shown while paused); ticks continue
    /// from there. Does nothing unless a countdown is paused.
    public func resume() {
        transaction { state, now, effects in
            guard case .paused(let remaining) = state.phase else { return }
            state.phase = .running(Countdown(deadline: now.advanced(by: remaining)))
            state.reschedule(effects: &effects)
        }
    }

    /// Ends the running or paused countdown before it reaches zero.
    ///
    /// Reports ``Event/ended(_:)`` with ``EndReason/stopped`` (no `tick(0)`); afterwards
    /// ``remaining`` is zero. A countdown whose deadline has already passed reports
    /// `ended(.finished)` instead, as it would have anyway. Does nothing when no countdown is
    /// running or paused, so an end is never reported twice.
    public func stop() {
        transaction { state, now, effects in
            guard state.phase.isActive else { return }
            let reason: EndReason = state.phase.remaining(at: now) > .zero ? .stopped : .finished
            state.finish(reason, effects: &effects)
        }
    }

    /// Suspends until no countdown is running or paused: returns at once when the timer is idle
    /// or its countdown has ended; otherwise when the countdown finishes or is stopped (not when
    /// it is replaced by a new start). Returns early if the waiting task is cancelled.
    public func waitUntilEnded() async {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state in
                    guard !Task.isCancelled, state.phase.isActive else { return false }
                    state.endWaiters[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.endWaiters.removeValue(forKey: id) }?.resume()
        }
    }

    // MARK: Internals for tests

    /// How many countdown tasks (or, on the ticker thread, first ticker entries) this timer has
    /// started so far.
    var tasksStarted: Int {
        state.withLock { $0.tasksStarted }
    }

    /// Whether the timer currently holds a countdown task or ticker entry.
    var hasTask: Bool {
        state.withLock { $0.wake != nil }
    }

    /// A timer its owner released ends its countdown silently: the task's sleep is cancelled,
    /// and nothing is reported.
    deinit {
        state.withLock { $0.wake }?.cancel()
    }
}

// MARK: - Machinery

extension CountdownTimer {
    private static func clamped(_ duration: Duration) -> Duration {
        min(max(duration, .zero), maximumDuration)
    }

    /// Applies `body` to the state under the lock, then does what it asked outside the lock.
    @discardableResult
    private func transaction<Result: Sendable>(
        _ body: (inout State, Instant, inout Effects) -> Result
    ) -> Result {
        let now = self.now
        let (result, effects) = state.withLock { state in
            var effects = Effects()
            let result = body(&state, now, &effects)
            effects.deliver = state.outbox.claim()
            return (result, effects)
        }
        perform(effects)
        return result
    }

    private func perform(_ effects: Effects) {
        effects.cancelled?.cancel()
        if let epoch = effects.launch { launch(epoch: epoch) }
        if effects.deliver { deliverPending() }
        for waiter in effects.waiters { waiter.resume() }
    }

    /// Delivers queued events one by one until none is left; only one caller delivers at a time.
    private func deliverPending() {
        while true {
            let batch = state.withLock { $0.outbox.takeBatch() }
            if batch.isEmpty { return }
            for event in batch { onChange(event) }
        }
    }

    /// Starts the task that counts down the countdown of `epoch`.
    ///
    /// The task holds the timer only weakly, and never while it sleeps: a timer its owner
    /// released ends its countdown silently (its deinit cancels the sleep), posting nothing and
    /// holding no memory.
    private func launch(epoch: UInt64) {
        #if canImport(Glibc) || canImport(Musl)
        if let line = clock.ticker {
            state.withLock { $0.tasksStarted += 1 }
            tick(epoch: epoch, on: line)
            return
        }
        #endif
        let settling = clock.settling
        settling?.willStartTask()
        let clock = self.clock
        let task = Task { [weak self] in
            settling?.taskDidStart()
            await Self.run(epoch: epoch, of: WeakTimer(self), on: clock)
            settling?.taskDidFinish()
        }
        let isCurrent = state.withLock { state in
            state.tasksStarted += 1
            guard state.epoch == epoch, state.phase.countdown != nil else { return false }
            state.wake = .task(task)
            return true
        }
        if !isCurrent { task.cancel() }
    }

    /// The countdown task: sleeps until each change of the shown value and reports it, until the
    /// countdown ends or is replaced, paused or rescheduled (`epoch` no longer current), or the
    /// timer is released.
    private static func run(epoch: UInt64, of timer: WeakTimer, on clock: ErasedClock) async {
        while true {
            // The timer is held only for this step, not across the sleep.
            guard let wake = timer.value?.step(epoch: epoch) else { return }
            do {
                try await clock.sleep(wake.offset)
            } catch {
                return
            }
        }
    }

    #if canImport(Glibc) || canImport(Musl)
    /// The ticker's counterpart of ``run(epoch:of:on:)``: takes one step now, and books the
    /// next on the ticker, which calls back here on its thread at that instant.
    ///
    /// The ticker holds the timer only weakly, so a released timer ends its countdown silently,
    /// as with a task.
    private func tick(epoch: UInt64, on line: RealClockTicker.Line) {
        guard let wake = step(epoch: epoch) else { return }
        let timer = WeakTimer(self)
        let ticket = line.schedule(at: wake.offset) { timer.value?.tick(epoch: epoch, on: line) }
        let isCurrent = state.withLock { state in
            guard state.epoch == epoch, state.phase.countdown != nil else { return false }
            state.wake = .ticket(ticket)
            return true
        }
        if !isCurrent { ticket.cancel() }
    }
    #endif

    /// One step of the countdown task: reports the shown value, or the end; returns when to
    /// wake next, `nil` when the task is done.
    private func step(epoch: UInt64) -> Instant? {
        let now = self.now
        let (effects, wake) = state.withLock { state -> (Effects, Instant?) in
            var effects = Effects()
            var wake: Instant?
            if state.epoch == epoch, case .running(let countdown) = state.phase {
                state.report(countdown.shownSeconds(at: now))
                if let next = countdown.nextChange(after: now) {
                    wake = next
                } else {
                    state.wake = nil
                    state.finish(.finished, effects: &effects)
                }
            }
            effects.deliver = state.outbox.claim()
            return (effects, wake)
        }
        perform(effects)
        return wake
    }
}

/// A weak reference to a timer, for its countdown task.
private struct WeakTimer: Sendable {
    weak var value: CountdownTimer?

    init(_ value: CountdownTimer?) { self.value = value }
}
