/// A state machine whose transitions start effects — async work that may feed inputs back —
/// on Swift concurrency, with effect queues, cancellation and an injected clock.
///
/// A reactive automaton: a mapping `(State, Input) -> (State, Effect)?` decides each
/// transition; the effect runs in a child task the automaton owns and may send the next input
/// itself. Written with the mapping DSL:
///
/// ```swift
/// let canForceLogout: @Sendable (LoginState) -> Bool = { [.loggingIn, .loggedIn].contains($0) }
/// let automaton = EffectAutomaton<LoginState, LoginInput>(state: .loggedOut, clock: clock, mappings: [
///     .login       | .loggedOut     => .loggingIn  | loginOKEffect,
///     .loginOK     | .loggingIn     => .loggedIn   | .none,
///     .logout      | .loggedIn      => .loggingOut | logoutOKEffect,
///     .logoutOK    | .loggingOut    => .loggedOut  | .none,
///     .forceLogout | canForceLogout => .loggingOut | forceLogoutOKEffect,
/// ])
///
/// let login = await automaton.send(.login)   // .loggingIn; the effect starts
/// try await clock.waitForSleepers(1)         // the effect waits for its second (a manual clock)
/// await clock.advance(by: .seconds(1))       // the effect sends .loginOK by itself
/// await login.wait(includingFollowUps: true)
/// let state = await automaton.state          // .loggedIn
/// ```
///
/// - Inputs the mapping rejects produce a failure reply and change nothing — running effects
///   keep running.
/// - ``replies()`` streams every reply, in order.
/// - ``send(_:)`` returns a ``SendHandle`` to await or cancel the effects the input started.
/// - ``cancel(_:)`` cancels effects by ``EffectID``, running or suspended in a queue;
///   ``cancelAll()`` cancels them all and keeps the automaton running.
/// - Waiting (``SendHandle/wait(includingFollowUps:)``, ``EffectHandle/wait(includingFollowUps:)``,
///   ``waitUntilIdle(timeout:)``) ends when the effects end or when the waiting task is cancelled;
///   the waits meant for tests also end, failing, after a bound of real time.
/// - Effects that name one ``EffectQueue`` share it; a second declaration of the name with
///   another policy or delay is reported as ``EffectIssue/conflictingQueue(_:existing:)`` and
///   its effect does not run.
/// - Effects take time only from the injected clock (``EffectContext/clock``), so tests can use a
///   manual clock and never sleep.
///
/// **Lifetime rule.** ``shutdown()``, or the automaton's deinit, cancels every running and
/// suspended effect, drops every input they send afterwards, ends every ``replies()`` stream and
/// releases every waiter. After shutdown, ``send(_:)`` rejects all inputs. Effects hold the
/// automaton only weakly; a ``SendHandle`` holds it strongly while you keep the handle.
public actor EffectAutomaton<State: Sendable, Input: Sendable> {
    /// The current state.
    public internal(set) var state: State

    /// Whether ``shutdown()`` has been called.
    public internal(set) var isShutDown = false

    /// The clock effects take time from.
    public nonisolated let clock: any Clock<Duration>

    let mapping: EffectMapping<State, Input>
    let timeline: Timeline
    let reportIssue: @Sendable (EffectIssue) -> Void
    var initialEffect: Effect<Input>?
    var nextSerial = 0
    var running: [Int: RunningEffect] = [:]
    /// The first declaration of each queue name; the bookkeeping below is keyed by name.
    var queues: [String: EffectQueue] = [:]
    var suspended: [String: [PendingEffect<Input>]] = [:]
    var queueMembers: [String: [Int]] = [:]
    var lastStart: [String: Duration] = [:]
    var groups: [Int: EffectGroup] = [:]
    var subscribers: [Int: AsyncStream<TransitionReply<State, Input>>.Continuation] = [:]

    /// Creates an automaton.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - clock: The clock effects take time from; the continuous clock by default.
    ///   - initialEffect: An effect started by ``start()`` or by the first ``send(_:)``.
    ///   - reportIssue: Where mistakes in the effects go (``EffectIssue``); printed to standard
    ///     error by default.
    ///   - mappings: The transitions; the first mapping that matches wins.
    public init(
        state: State,
        clock: any Clock<Duration> = ContinuousClock(),
        initialEffect: Effect<Input> = .none,
        reportIssue: @escaping @Sendable (EffectIssue) -> Void = EffectIssue.printToStandardError,
        mappings: [EffectMapping<State, Input>]
    ) {
        self.init(
            state: state, clock: clock, initialEffect: initialEffect, reportIssue: reportIssue,
            mapping: EffectMapping(firstOf: mappings)
        )
    }

    /// Creates an automaton from a single mapping.
    ///
    /// - Parameters:
    ///   - state: The initial state.
    ///   - clock: The clock effects take time from; the continuous clock by default.
    ///   - initialEffect: An effect started by ``start()`` or by the first ``send(_:)``.
    ///   - reportIssue: Where mistakes in the effects go (``EffectIssue``); printed to standard
    ///     error by default.
    ///   - mapping: The transitions: the next state and effect, or `nil` to reject the input.
    public init(
        state: State,
        clock: any Clock<Duration> = ContinuousClock(),
        initialEffect: Effect<Input> = .none,
        reportIssue: @escaping @Sendable (EffectIssue) -> Void = EffectIssue.printToStandardError,
        mapping: EffectMapping<State, Input>
    ) {
        self.state = state
        self.clock = clock
        self.timeline = Timeline(clock)
        self.reportIssue = reportIssue
        self.initialEffect = initialEffect.isNone ? nil : initialEffect
        self.mapping = mapping
    }

    deinit {
        for effect in running.values { effect.task?.cancel() }
        for group in groups.values {
            for waiter in group.waiters { waiter.slot.resume() }
        }
        for subscriber in subscribers.values { subscriber.finish() }
    }

    /// Starts the initial effect, if it has not started yet; ``send(_:)`` does it too.
    ///
    /// - Returns: A handle to await or cancel the initial effect and its follow-ups.
    @discardableResult
    public func start() -> EffectHandle<State, Input> {
        let own = makeGroupID()
        let chain = makeGroupID()
        if !isShutDown, let effect = initialEffect {
            initialEffect = nil
            apply(effect, own: own, chain: chain)
        }
        return EffectHandle(automaton: self, own: own, chain: chain)
    }

    /// Sends `input`: runs the mapping, moves to the next state and starts the effect, or
    /// replies with a failure and changes nothing.
    ///
    /// The reply is also delivered to every ``replies()`` stream before the effect starts.
    @discardableResult
    public func send(_ input: Input) -> SendHandle<State, Input> {
        if initialEffect != nil { start() }
        return receive(input, chain: nil)
    }

    /// Cancels every running or suspended effect with id `id`.
    ///
    /// An id no effect has (yet, or any more) is a no-op: cancelling never affects effects
    /// started later.
    ///
    /// - Returns: How many effects were cancelled.
    @discardableResult
    public func cancel(_ id: EffectID) -> Int {
        cancelEffects { $0.id == id }
    }

    /// Cancels every running and suspended effect, with an id or without; the automaton stays
    /// usable.
    ///
    /// Running effects are cancelled and the inputs they send from now on are dropped; effects
    /// suspended in a queue never start; waiters on them return. Unlike ``shutdown()``, the
    /// state stays, the ``replies()`` streams go on, and the next input's effects run as usual —
    /// in a spaced queue (``EffectQueue/delay``), one delay after the last effect that really
    /// started.
    ///
    /// ```swift
    /// // The user signed out: abandon every request in flight, then start over.
    /// await automaton.cancelAll()
    /// await automaton.send(.showLogin)
    /// ```
    ///
    /// - Returns: How many effects were cancelled.
    @discardableResult
    public func cancelAll() -> Int {
        let count = cancelEffects { _ in true }
        forgetCancelledStarts()
        return count
    }

    /// Every reply from now on, in order, until shutdown. Each call returns a new stream.
    public func replies() -> AsyncStream<TransitionReply<State, Input>> {
        let (stream, continuation) = AsyncStream.makeStream(of: TransitionReply<State, Input>.self)
        guard !isShutDown else {
            continuation.finish()
            return stream
        }
        let id = makeGroupID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return stream
    }

    /// Cancels every effect, drops their later inputs, ends the reply streams and releases
    /// waiters. The state stays as it is; later inputs are rejected.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        let tasks = running.values.compactMap(\.task)
        running.removeAll()
        suspended.removeAll()
        queueMembers.removeAll()
        let waiters = groups.values.flatMap(\.waiters)
        groups.removeAll()
        let streams = Array(subscribers.values)
        subscribers.removeAll()
        for task in tasks { task.cancel() }
        for waiter in waiters { waiter.slot.resume() }
        for stream in streams { stream.finish() }
    }

    /// How many effects are running (including those waiting for their queue's delay).
    public var runningEffectCount: Int { running.count }

    /// How many effects wait in a full ``EffectPolicy/Overflow/suspendNew`` queue.
    public var suspendedEffectCount: Int { suspended.values.reduce(0) { $0 + $1.count } }

    /// Waits until no effect is running or suspended, or until the waiting task is cancelled;
    /// throws when that takes longer than `timeout` of real time.
    ///
    /// For tests: an effect that never ends fails the test after `timeout`, naming the effects
    /// still running, instead of hanging the test run.
    ///
    /// ```swift
    /// await automaton.send(.refresh)
    /// try await clock.waitForSleepers(1)
    /// await clock.advance(by: .seconds(60))
    /// try await automaton.waitUntilIdle()  // if an effect never ends, the test fails, naming it
    /// ```
    ///
    /// - Parameter timeout: How much real time to wait at most: ten minutes by default, a guard
    ///   against a hang on a loaded machine (the effects' own clock may be a manual clock that
    ///   only the test moves). A wait that succeeds returns as soon as the effects end.
    /// - Throws: ``EffectWaitTimeout`` with the effects still running or suspended.
    public func waitUntilIdle(timeout: Duration = .seconds(600)) async throws(EffectWaitTimeout) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !Task.isCancelled, !running.isEmpty || suspended.values.contains(where: { !$0.isEmpty }) {
            let group = makeGroupID()
            let members = Array(running.keys) + suspended.values.joined().map(\.serial)
            for serial in members { join(serial, group: group) }
            guard await wait(for: group, until: deadline) else {
                throw EffectWaitTimeout(timeout: timeout, effects: effects(inGroup: nil))
            }
        }
    }
}
