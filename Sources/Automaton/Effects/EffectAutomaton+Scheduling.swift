/// An effect that runs (or waits for its queue's delay) in a task the automaton owns.
struct RunningEffect: Sendable {
    let serial: Int
    let id: EffectID?
    let queue: EffectQueue?
    /// The groups waiting for this effect.
    var groups: [Int]
    let chain: Int
    var task: Task<Void, Never>?
}

/// An effect that has not started: just scheduled, or suspended in a full queue.
struct PendingEffect<Input: Sendable>: Sendable {
    let serial: Int
    let id: EffectID?
    let queue: EffectQueue?
    /// The groups waiting for this effect.
    var groups: [Int]
    /// The chain its follow-up inputs belong to.
    let chain: Int
    let operation: @Sendable (EffectContext<Input>) async throws -> Void
}

/// Effects someone may wait for: the effects of one input, or a whole chain of follow-ups.
struct EffectGroup {
    var outstanding = 0
    var waiters: [Waiter] = []
}

/// A task waiting for a group; the token finds it again when the task is cancelled.
struct Waiter {
    let token: Int
    let slot: WaitSlot
}

extension EffectAutomaton {
    /// Runs the mapping for `input`; `chain` is the chain of the effect that sent it, if any.
    func receive(_ input: Input, chain: Int?) -> SendHandle<State, Input> {
        let from = state
        guard !isShutDown, let (next, effect) = mapping(from, input) else {
            let reply = TransitionReply<State, Input>.failure(input: input, from: from)
            publish(reply)
            return SendHandle(reply: reply, effects: EffectHandle(automaton: self, own: nil, chain: nil))
        }
        state = next
        let reply = TransitionReply<State, Input>.success(input: input, from: from, to: next)
        publish(reply)
        let own = makeGroupID()
        let chain = chain ?? makeGroupID()
        apply(effect, own: own, chain: chain)
        return SendHandle(reply: reply, effects: EffectHandle(automaton: self, own: own, chain: chain))
    }

    /// An input sent by the running effect `serial`; dropped if that effect is gone.
    func receive(_ input: Input, fromEffect serial: Int) -> Bool {
        guard let effect = running[serial], !isShutDown else { return false }
        return receive(input, chain: effect.chain).reply.isSuccess
    }

    func makeGroupID() -> Int {
        nextSerial += 1
        return nextSerial
    }

    func publish(_ reply: TransitionReply<State, Input>) {
        for subscriber in subscribers.values { subscriber.yield(reply) }
    }

    func removeSubscriber(_ id: Int) {
        subscribers[id] = nil
    }

    func apply(_ effect: Effect<Input>, own: Int, chain: Int) {
        var issues: [EffectIssue] = []
        for item in effect.items {
            switch item.work {
            case let .cancel(ids):
                cancelEffects { $0.id.map(ids.contains) ?? false }
            case let .run(operation):
                if let queue = item.queue, let issue = declare(queue) {
                    issues.append(issue)
                    continue
                }
                schedule(
                    PendingEffect(
                        serial: makeGroupID(), id: item.id, queue: item.queue,
                        groups: [own, chain], chain: chain, operation: operation
                    ))
            }
        }
        for issue in issues { reportIssue(issue) }
    }

    /// Records the first declaration of each queue name; a later one that behaves differently
    /// is a conflict, and its effect must not run.
    func declare(_ queue: EffectQueue) -> EffectIssue? {
        guard let existing = queues[queue.name] else {
            queues[queue.name] = queue
            return nil
        }
        return existing.behavesLike(queue) ? nil : .conflictingQueue(queue, existing: existing)
    }

    func schedule(_ effect: PendingEffect<Input>) {
        guard let queue = effect.queue, let limit = queue.policy.limit else {
            register(effect.groups)
            start(effect)
            return
        }
        switch queue.policy {
        case .runAll:
            register(effect.groups)
            start(effect)
        case .newest:
            while let oldest = queueMembers[queue.name]?.first, queueMembers[queue.name, default: []].count >= limit {
                cancelRunning(oldest)
            }
            register(effect.groups)
            start(effect)
        case .oldest(_, .discardNew):
            guard queueMembers[queue.name, default: []].count < limit else { return }
            register(effect.groups)
            start(effect)
        case .oldest(_, .suspendNew):
            register(effect.groups)
            if queueMembers[queue.name, default: []].count < limit {
                start(effect)
            } else {
                suspended[queue.name, default: []].append(effect)
            }
        }
    }

    func start(_ effect: PendingEffect<Input>) {
        var startAt: Duration?
        if let queue = effect.queue, queue.delay > .zero {
            let now = timeline.elapsed()
            let at = max(now, lastStart[queue.name].map { $0 + queue.delay } ?? now)
            lastStart[queue.name] = at
            if at > now { startAt = at }
        }
        if let queue = effect.queue {
            queueMembers[queue.name, default: []].append(effect.serial)
        }
        running[effect.serial] = RunningEffect(
            serial: effect.serial, id: effect.id, queue: effect.queue,
            groups: effect.groups, chain: effect.chain, task: nil
        )
        running[effect.serial]?.task = Self.spawn(
            effect, startAt: startAt, timeline: timeline, clock: clock, owner: self
        )
    }

    /// Starts the task outside the actor's isolation; it holds the automaton weakly.
    nonisolated static func spawn(
        _ effect: PendingEffect<Input>,
        startAt: Duration?,
        timeline: Timeline,
        clock: any Clock<Duration>,
        owner: EffectAutomaton
    ) -> Task<Void, Never> {
        let serial = effect.serial
        let operation = effect.operation
        let context = EffectContext<Input>(clock: clock) { [weak owner] input in
            await owner?.receive(input, fromEffect: serial) ?? false
        }
        return Task { [weak owner] in
            do {
                if let startAt { try await timeline.sleep(startAt) }
                try Task.checkCancellation()
                try await operation(context)
            } catch {
                // An effect that throws or is cancelled simply ends.
            }
            await owner?.effectEnded(serial)
        }
    }

    func effectEnded(_ serial: Int) {
        guard let effect = running.removeValue(forKey: serial) else { return }
        leaveQueue(effect)
        release(effect.groups)
        if let queue = effect.queue { resumeSuspended(in: queue) }
    }

    func cancelRunning(_ serial: Int) {
        guard let effect = running.removeValue(forKey: serial) else { return }
        effect.task?.cancel()
        leaveQueue(effect)
        release(effect.groups)
    }

    func leaveQueue(_ effect: RunningEffect) {
        guard let name = effect.queue?.name else { return }
        queueMembers[name]?.removeAll { $0 == effect.serial }
        if queueMembers[name]?.isEmpty == true { queueMembers[name] = nil }
    }

    func resumeSuspended(in queue: EffectQueue) {
        guard let limit = queue.policy.limit else { return }
        let name = queue.name
        while queueMembers[name, default: []].count < limit, var waiting = suspended[name], !waiting.isEmpty {
            let next = waiting.removeFirst()
            suspended[name] = waiting.isEmpty ? nil : waiting
            start(next)
        }
    }

    /// Cancels suspended, then running effects matching `predicate`; returns how many.
    @discardableResult
    func cancelEffects(where predicate: (EffectDescriptor) -> Bool) -> Int {
        var count = 0
        for (name, waiting) in suspended {
            let (cancelled, kept) = waiting.partitioned { predicate(EffectDescriptor(id: $0.id, groups: $0.groups)) }
            suspended[name] = kept.isEmpty ? nil : kept
            for effect in cancelled { release(effect.groups) }
            count += cancelled.count
        }
        let matching = running.values
            .filter { predicate(EffectDescriptor(id: $0.id, groups: $0.groups)) }
            .map(\.serial)
            .sorted()
        var freed: [String: EffectQueue] = [:]
        for serial in matching {
            if let queue = running[serial]?.queue { freed[queue.name] = queue }
            cancelRunning(serial)
        }
        count += matching.count
        for name in freed.keys.sorted() {
            if let queue = freed[name] { resumeSuspended(in: queue) }
        }
        return count
    }

    func cancelEffects(inGroup group: Int) {
        cancelEffects { $0.groups.contains(group) }
    }

    func register(_ groupIDs: [Int]) {
        for id in groupIDs { groups[id, default: EffectGroup()].outstanding += 1 }
    }

    func release(_ groupIDs: [Int]) {
        for id in groupIDs {
            guard var group = groups[id] else { continue }
            group.outstanding -= 1
            if group.outstanding > 0 {
                groups[id] = group
            } else {
                groups[id] = nil
                for waiter in group.waiters { waiter.slot.resume() }
            }
        }
    }

    /// Adds the running or suspended effect `serial` to `group`.
    func join(_ serial: Int, group: Int) {
        if running[serial] != nil {
            running[serial]?.groups.insert(group, at: 0)
            register([group])
            return
        }
        for (name, waiting) in suspended {
            guard let index = waiting.firstIndex(where: { $0.serial == serial }) else { continue }
            suspended[name]?[index].groups.insert(group, at: 0)
            register([group])
            return
        }
    }

    /// Waits until every effect of `group` has ended, or the waiting task is cancelled; returns
    /// at once if none is left.
    func wait(for group: Int) async {
        _ = await wait(for: group, until: nil)
    }

    /// Waits until every effect of `group` has ended, the waiting task is cancelled, or the
    /// real-time `deadline` (if any) has passed; `false` when the deadline ended the wait with
    /// effects of the group left.
    func wait(for group: Int, until deadline: ContinuousClock.Instant?) async -> Bool {
        guard groups[group] != nil, !Task.isCancelled else { return true }
        let token = makeGroupID()
        let slot = WaitSlot()
        groups[group]?.waiters.append(Waiter(token: token, slot: slot))
        // The deadline releases the waiter as cancellation does, from a task of its own.
        let timer = deadline.map { deadline in
            Task {
                try? await ContinuousClock().sleep(until: deadline, tolerance: nil)
                slot.resume()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { slot.wait(with: $0) }
        } onCancel: {
            // Resumes the task on the cancelling thread: no hop onto this actor, which may be
            // busy, and no new task, which may wait for a free thread.
            slot.resume()
        }
        timer?.cancel()
        // Back on the actor: forget the waiter if cancellation or the deadline released it.
        stopWaiting(token, for: group)
        guard let deadline, groups[group] != nil, !Task.isCancelled else { return true }
        return ContinuousClock.now < deadline
    }

    /// Waits for `group` as ``wait(for:)`` does, at most `timeout` of real time.
    func wait(for group: Int, timeout: Duration) async throws(EffectWaitTimeout) {
        guard await wait(for: group, until: ContinuousClock.now.advanced(by: timeout)) else {
            throw EffectWaitTimeout(timeout: timeout, effects: effects(inGroup: group))
        }
    }

    /// The effects running or suspended, of `group` (every one when `nil`), oldest first.
    func effects(inGroup group: Int?) -> [EffectWaitTimeout.Effect] {
        let runningEffects = running.values.filter { group == nil || $0.groups.contains(group ?? 0) }.map {
            EffectWaitTimeout.Effect(serial: $0.serial, id: $0.id, queue: $0.queue?.name, isSuspended: false)
        }
        let suspendedEffects = suspended.values.joined().filter { group == nil || $0.groups.contains(group ?? 0) }.map {
            EffectWaitTimeout.Effect(serial: $0.serial, id: $0.id, queue: $0.queue?.name, isSuspended: true)
        }
        return (runningEffects + suspendedEffects).sorted { $0.serial < $1.serial }
    }

    /// Forgets the waiter `token` of `group`, if it is still listed (its task was released by
    /// cancellation, not by the group's end).
    func stopWaiting(_ token: Int, for group: Int) {
        guard let index = groups[group]?.waiters.firstIndex(where: { $0.token == token }) else { return }
        groups[group]?.waiters.remove(at: index)
    }

    /// How many tasks wait for effects.
    var waiterCount: Int {
        groups.values.reduce(0) { $0 + $1.waiters.count }
    }

    /// Moves each spaced queue's next start back from the starts that `cancelAll()` just
    /// cancelled to the last start that happened, so the next effect keeps its spacing from a
    /// real start. Each start still ahead was exactly one delay after the one before it.
    func forgetCancelledStarts() {
        let now = timeline.elapsed()
        for (name, start) in lastStart where start > now {
            guard let delay = queues[name]?.delay, delay > .zero else { continue }
            var last = start
            while last > now { last -= delay }
            lastStart[name] = last
        }
    }
}

/// What cancellation filters look at.
struct EffectDescriptor {
    let id: EffectID?
    let groups: [Int]
}

extension Array {
    /// The elements matching `predicate`, and the others, both in order.
    func partitioned(by predicate: (Element) -> Bool) -> (matching: [Element], others: [Element]) {
        var matching: [Element] = []
        var others: [Element] = []
        for element in self {
            if predicate(element) { matching.append(element) } else { others.append(element) }
        }
        return (matching, others)
    }
}
