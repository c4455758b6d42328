import SingletonStoresLocking
/// A clock that moves only when you tell it to, so tests of time-based code run instantly and
/// always the same way.
///
/// Code that waits — a countdown, a debounce, a retry loop — takes its clock as a parameter. In
/// production you pass `ContinuousClock()`; in a test you pass a `ManualClock` and move time
/// yourself. For example, a model that counts seconds:
///
/// ```swift
/// import Synchronization
/// import Timers
///
/// final class Stopwatch<C: Clock<Duration>>: Sendable {
///     let clock: C
///     let seconds = Mutex(0)
///
///     init(clock: C) { self.clock = clock }
///
///     func run() async throws {
///         var next = clock.now
///         while true {
///             next = next.advanced(by: .seconds(1))
///             try await clock.sleep(until: next, tolerance: nil)
///             seconds.withLock { $0 += 1 }
///         }
///     }
/// }
/// ```
///
/// can be tested without waiting a single real second:
///
/// ```swift
/// @Test func countsEverySecond() async throws {
///     let clock = ManualClock()
///     let stopwatch = Stopwatch(clock: clock)
///     let task = Task { try await stopwatch.run() }
///     try await clock.waitForSleepers(1)  // the stopwatch waits for its first second
///     await clock.advance(by: .seconds(60))
///     #expect(stopwatch.seconds.withLock { $0 } == 60)
///     task.cancel()
/// }
/// ```
///
/// ``advance(by:)`` wakes every sleeper whose deadline it passes, one at a time, in deadline order
/// (first come, first served for equal deadlines). Before waking a sleeper it sets ``now`` to that
/// sleeper's deadline, and after waking it, it lets the woken task run until the task sleeps again
/// (or, if the task does something else or ends, for at least 1,000 scheduler turns and 20 ms of
/// real time). So a loop that sleeps until its next instant runs every iteration, each at its
/// exact instant, before `advance` returns. A woken task that ends costs that bound once; a
/// ``CountdownTimer`` tells the clock when its task ends, so it costs nothing.
///
/// A task you start yourself may not be asleep yet when you call `advance`: wait until it is
/// with ``waitForSleepers(_:timeout:)``, as the test above does. A ``CountdownTimer`` announces its task to the clock, so `advance`
/// waits for it by itself.
///
/// To move far ahead the way a device wakes from sleep — each overdue sleeper woken once, at the
/// new time, whatever the distance — use ``jump(by:)`` instead.
///
/// A sleep whose deadline is not in the future returns at once. A sleeping task that is
/// cancelled stops sleeping and throws `CancellationError` right away.
public final class ManualClock: Clock, Sendable {
    /// The clock's time: how far it has been advanced since its zero.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// The smallest step this clock can measure: any, since time moves only by ``advance(by:)``.
    public var minimumResolution: Duration {
        .zero
    }

    /// How many tasks are currently sleeping on this clock.
    ///
    /// Useful to wait until the code under test has gone to sleep before advancing, and to check
    /// that it schedules only as much as it should.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// How many scheduler turns `advance` grants a running woken task to sleep again before
    /// moving on.
    ///
    /// A task that sleeps again ends its turn early, so the bound only costs time for tasks that
    /// end or wait on something else after waking.
    static let settleTurns = 1_000

    /// The least real time `advance` grants a running woken task to sleep again.
    static let settleTime = Duration.milliseconds(20)

    /// A guard against a blocked executor, not a timing rule: the most real time `advance` waits
    /// for a woken task to start running. A woken task always runs once a thread is free, so
    /// the bound is as long as a loaded machine may keep a task waiting for one: a suite of a
    /// thousand tests under the thread sanitizer on two busy cores kept one waiting for more
    /// than two minutes, and each shorter bound let `advance` move on while the task still
    /// waited, so a test missed its tick. A cancelled caller stops waiting at once (a test's time
    /// limit ends the wait).
    static let startBound = Duration.seconds(600)

    /// A longer ``startBound`` for the task that sets it, for the library's own tests: one that
    /// shows a cancelled `advance` does not wait for a woken task sets it past the test's hang
    /// limit, so that an `advance` that waited would fail by hanging, with no timing assertion.
    @TaskLocal package static var startBoundOverride: Duration?

    /// A guard against a hung test, not a timing rule: `advance` waits this long at most for a
    /// timer's own task (which always sleeps again or reports its end) before giving up, or
    /// until the caller is cancelled.
    static let cooperativeBound = Duration.seconds(600)

    private let state: Locked<State>

    /// Creates a clock that starts at the given instant.
    ///
    /// - Parameter now: The clock's initial time; zero by default.
    public init(now: Instant = Instant()) {
        state = Locked(State(now: now))
    }

    /// Suspends the current task until the clock reaches `deadline`.
    ///
    /// Returns at once if `deadline` is not after ``now``.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Ignored: a manual clock wakes sleepers at their exact deadline.
    /// - Throws: `CancellationError` if the task is cancelled before or while it sleeps.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let task = currentTaskKey()
        let id = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    // The cancellation flag is set before cancellation handlers run, so checking
                    // it under the lock closes the gap between the check and the insertion.
                    if Task.isCancelled {
                        if let task { state.busyTasks.remove(task) }
                        return .failure(CancellationError())
                    }
                    // A task that does not really sleep keeps running: it stays busy.
                    guard deadline > state.now else { return .success(()) }
                    if let task { state.busyTasks.remove(task) }
                    state.insert(Sleeper(id: id, deadline: deadline, task: task, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
            // Woken (or not asleep at all): this task is running again.
            if let task {
                state.withLock { state in
                    if state.wakingTasks.remove(task) != nil { state.busyTasks.insert(task) }
                }
            }
        } onCancel: {
            let continuation = state.withLock { $0.removeSleeper(id: id)?.continuation }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking, in deadline order, every sleeper whose
    /// deadline it reaches.
    ///
    /// Each sleeper wakes with ``now`` equal to its own deadline and gets to run until it sleeps
    /// again, so repeating timers deliver every tick inside the advanced span before this method
    /// returns. A negative duration does nothing.
    ///
    /// - Parameter duration: How far to move the clock; zero by default, which only wakes sleepers
    ///   that are already due.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `deadline`, waking, in deadline order, every sleeper whose
    /// deadline it reaches.
    ///
    /// A deadline before ``now`` does nothing: a manual clock, like every `Clock`, never goes back.
    ///
    /// - Parameter deadline: The instant to move to.
    public func advance(to deadline: Instant) async {
        await settle()
        while true {
            let next = state.withLock { state -> Sleeper? in
                guard let first = state.sleepers.first, first.deadline <= deadline else {
                    state.now = max(state.now, deadline)
                    return nil
                }
                state.sleepers.removeFirst()
                state.now = max(state.now, first.deadline)
                if let task = first.task { state.wakingTasks.insert(task) }
                return first
            }
            guard let next else { return }
            next.continuation.resume()
            await settle()
        }
    }

    /// Moves the clock forward by `duration` in one step, as a device waking from sleep sees
    /// time: every sleeper whose deadline is passed wakes once, all with ``now`` already at the
    /// new time.
    ///
    /// Where ``advance(by:)`` stops at each deadline on the way and lets each woken task run
    /// before going on (so a countdown delivers every tick in the span, and an advance of a
    /// century takes as long as three billion ticks), `jump` visits no intermediate instant: it
    /// costs the same for a second as for a hundred years. Use it to test what happens after a
    /// long absence:
    ///
    /// ```swift
    /// let events = Mutex<[CountdownTimer.Event]>([])
    /// let timer = CountdownTimer(clock: clock) { event in events.withLock { $0.append(event) } }
    /// timer.start(duration: CountdownTimer.maximumDuration)
    /// await clock.jump(by: CountdownTimer.maximumDuration)
    /// // events: tick(3_153_600_000), tick(0), ended(.finished)
    /// ```
    ///
    /// Woken tasks run until they sleep again (on a deadline after the new time) or end, as
    /// with `advance`, before this method returns. A task that sleeps again on a deadline that
    /// is not after the new time does not sleep at all, as on any clock: a loop that sleeps until
    /// each second in turn runs through the missed seconds at once, without waiting. A negative
    /// duration does nothing.
    ///
    /// - Parameter duration: How far to move the clock.
    public func jump(by duration: Duration) async {
        await jump(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `deadline` in one step, waking once every sleeper whose
    /// deadline it passes, all at the new time; see ``jump(by:)``.
    ///
    /// A deadline before ``now`` does nothing: the clock never goes back.
    ///
    /// - Parameter deadline: The instant to move to.
    public func jump(to deadline: Instant) async {
        await settle()
        let woken = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, deadline)
            let now = state.now
            let due = state.sleepers.prefix { $0.deadline <= now }
            let woken = Array(due)
            state.sleepers.removeFirst(woken.count)
            for sleeper in woken {
                if let task = sleeper.task { state.wakingTasks.insert(task) }
            }
            return woken
        }
        // In deadline order, so tasks that start at once start in the order they were due.
        for sleeper in woken { sleeper.continuation.resume() }
        await settle()
    }

    /// Advances the clock sleeper by sleeper until nobody sleeps on it any more.
    ///
    /// - Important: A task that always sleeps again, such as an endless repeating timer, keeps
    ///   this method running forever. Cancel such tasks first, or use ``advance(by:)``.
    public func run() async {
        await settle()
        while let next = state.withLock({ $0.sleepers.first?.deadline }) {
            await advance(to: next)
        }
    }

    /// Yields until every task the clock woke (or a timer announced) has gone back to sleep.
    ///
    /// A task started by a timer of this module (a ``CountdownTimer``'s) announces itself and
    /// promises to sleep again or report its end, so it is waited for until it does, however
    /// busy the machine is: countdowns are deterministic (``cooperativeBound`` only guards
    /// against a hung test).
    ///
    /// Any other woken task is waited for until it runs: its continuation was resumed, so it will
    /// (a safety bound of ``startBound`` of real time guards against a blocked executor). Once it
    /// runs, it gets ``settleTurns`` scheduler turns and at least ``settleTime`` to sleep again,
    /// after which it is assumed to have ended or to wait on something else.
    private func settle() async {
        let startBound = Self.startBoundOverride ?? Self.startBound
        let clock = ContinuousClock()
        let start = clock.now
        var runningSince: ContinuousClock.Instant?
        var turns = 0
        while !Task.isCancelled {
            turns += 1
            // Polling must not hold up the woken task: skip a turn when the lock is busy.
            if let (waking, running, cooperative) = state.withLockIfAvailable({
                ($0.hasWakingTasks, !$0.busyTasks.isEmpty, $0.awaitsCooperativeTask)
            }) {
                if !waking && !running { return }
                if cooperative {
                    // A timer's task: it will sleep again or report its end; wait for that.
                    runningSince = nil
                    if turns % 256 == 0, start.duration(to: clock.now) > Self.cooperativeBound { break }
                } else if waking {
                    runningSince = nil
                    if turns % 64 == 0, start.duration(to: clock.now) > startBound { break }
                } else if let since = runningSince {
                    if turns > Self.settleTurns, since.duration(to: clock.now) > Self.settleTime { break }
                } else {
                    runningSince = clock.now
                    turns = 0
                }
            }
            await Task.yield()
        }
        state.withLock { $0.forgetBusyTasks() }
    }
}

// MARK: - Task tracking used by timers of this module

extension ManualClock: SettlingClock {
    package func willStartTask() {
        state.withLock { $0.announcedTasks += 1 }
    }

    package func taskDidStart() {
        let task = currentTaskKey()
        state.withLock { state in
            state.announcedTasks = max(0, state.announcedTasks - 1)
            if let task {
                state.busyTasks.insert(task)
                state.cooperativeTasks.insert(task)
            }
        }
    }

    package func taskDidFinish() {
        guard let task = currentTaskKey() else { return }
        state.withLock { state in
            state.busyTasks.remove(task)
            state.cooperativeTasks.remove(task)
        }
    }
}
