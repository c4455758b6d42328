/// The outcome of sending a list of events through a transition table, as a test would.
///
/// ```swift
/// let table = try RegistrationFlow.makeTable()
/// let replay = table.replay(RegistrationFlow.routes["email-sign-up"] ?? [], from: .root)
/// #expect(replay.isComplete)
/// #expect(replay.state == .home)
/// ```
///
/// Replaying stops at the first rejected event: ``rejected`` is its reply and ``state`` is the
/// state it was rejected in.
public struct Replay<State: Hashable & Sendable, Event: TransitionEvent>: Sendable {
    /// One reply per event sent, in order; the last one is the rejection, if any.
    public let replies: [TransitionReply<State, Event>]
    /// The state reached: after the last event, or where the rejected event was sent.
    public let state: State

    /// The reply of the first rejected event, or `nil` if every event was accepted.
    public var rejected: TransitionReply<State, Event>? {
        replies.last.flatMap { $0.isSuccess ? nil : $0 }
    }

    /// Whether every event was accepted.
    public var isComplete: Bool { rejected == nil }

    /// The states visited, starting with the state the replay started in.
    public var path: [State] {
        guard let first = replies.first else { return [state] }
        return [first.from] + replies.compactMap(\.to)
    }
}

extension TransitionTable {
    /// Sends `events` one after another starting in `state`, stopping at the first rejection.
    ///
    /// A flow test in one line: replay a route and check where it ends (see ``Replay``).
    public func replay(_ events: some Sequence<Event>, from state: State) -> Replay<State, Event> {
        var current = state
        var replies: [TransitionReply<State, Event>] = []
        for event in events {
            let reply = reply(to: event, in: current)
            replies.append(reply)
            guard let next = reply.to else { break }
            current = next
        }
        return Replay(replies: replies, state: current)
    }
}
