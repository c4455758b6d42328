/// What ``EffectAutomaton/send(_:)`` returns: the reply, and the effects the input started.
///
/// ```swift
/// let login = await automaton.send(.login)
/// let reply = login.reply                    // .success(input: .login, from: .loggedOut, to: .loggingIn)
/// await login.wait()                         // the login effect has ended
/// await login.wait(includingFollowUps: true) // … and everything it led to
/// await login.cancel()                       // or give up on it
/// ```
///
/// A rejected input started nothing: waiting returns at once and cancelling does nothing.
public struct SendHandle<State: Sendable, Input: Sendable>: Sendable {
    /// What the input did.
    public let reply: TransitionReply<State, Input>
    /// The effects the input started.
    public let effects: EffectHandle<State, Input>

    /// Waits until the input's effects have ended, or the waiting task is cancelled; see
    /// ``EffectHandle/wait(includingFollowUps:)``.
    public func wait(includingFollowUps: Bool = false) async {
        await effects.wait(includingFollowUps: includingFollowUps)
    }

    /// Waits until the input's effects have ended, throwing when that takes longer than
    /// `timeout` of real time; see ``EffectHandle/wait(includingFollowUps:timeout:)``.
    public func wait(includingFollowUps: Bool = false, timeout: Duration) async throws(EffectWaitTimeout) {
        try await effects.wait(includingFollowUps: includingFollowUps, timeout: timeout)
    }

    /// Cancels the input's effects; see ``EffectHandle/cancel(includingFollowUps:)``.
    public func cancel(includingFollowUps: Bool = false) async {
        await effects.cancel(includingFollowUps: includingFollowUps)
    }
}
