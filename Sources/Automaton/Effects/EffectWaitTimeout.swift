/// A wait for effects that did not end within its bound, and what was still running then.
///
/// Tests wait for effects with ``EffectAutomaton/waitUntilIdle(timeout:)`` or
/// ``EffectHandle/wait(includingFollowUps:timeout:)``; an effect that never ends (a race that
/// lost its input, a sleep on a manual clock nobody advances) then fails the test with this
/// error, which names the effects (`#3 (id "login", queue "auth")`), instead of hanging the
/// whole test run.
public struct EffectWaitTimeout: Error, Equatable, Sendable, CustomStringConvertible {
    /// One effect that had not ended.
    public struct Effect: Equatable, Sendable, CustomStringConvertible {
        /// Its number in the automaton, in the order effects were scheduled.
        public let serial: Int
        /// Its id, if it has one.
        public let id: EffectID?
        /// The name of its queue, if it has one.
        public let queue: String?
        /// Whether it was suspended in a full queue (it had not started) rather than running.
        public let isSuspended: Bool

        /// `#3 (id "login", queue "auth")`, `#4, suspended in queue "uploads"`.
        public var description: String {
            var details: [String] = []
            if let id { details.append("id \"\(id.name)\"") }
            if isSuspended {
                details.append("suspended in queue \"\(queue ?? "")\"")
            } else if let queue {
                details.append("queue \"\(queue)\"")
            }
            return details.isEmpty ? "#\(serial)" : "#\(serial) (\(details.joined(separator: ", ")))"
        }
    }

    /// How long the wait lasted: its timeout, in real time.
    public let timeout: Duration
    /// The effects still running or suspended when it gave up, oldest first.
    public let effects: [Effect]

    /// Which effects were still running, and for how long they were waited for.
    public var description: String {
        let list = effects.isEmpty ? "none is listed any more" : effects.map(\.description).joined(separator: ", ")
        return "Effects still running after \(timeout) (real time): \(list). An effect that never ends "
            + "waits for an input, a queue or a clock that nothing moves: cancel it, or advance the test's clock."
    }
}
