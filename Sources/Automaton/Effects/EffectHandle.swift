/// The effects one cause started — an input, or the automaton's start — to await or cancel.
///
/// ```swift
/// let handle = await automaton.start()
/// await handle.wait(includingFollowUps: true) // the initial effect and all it led to
/// ```
///
/// A handle keeps its automaton alive while you hold it.
public struct EffectHandle<State: Sendable, Input: Sendable>: Sendable {
    let automaton: EffectAutomaton<State, Input>
    let own: Int?
    let chain: Int?

    /// Waits until the effects this cause started have ended (finished, failed, been cancelled
    /// or discarded), or the automaton shut down.
    ///
    /// Cancelling the waiting task ends the wait at once and leaves the effects running, so a
    /// test's time limit, or a screen that goes away, can stop waiting for an effect that never
    /// ends.
    ///
    /// - Parameter includingFollowUps: Also wait for the effects started by the inputs those
    ///   effects sent, and by theirs, to the end of the chain.
    public func wait(includingFollowUps: Bool = false) async {
        guard let group = includingFollowUps ? chain : own else { return }
        await automaton.wait(for: group)
    }

    /// ``wait(includingFollowUps:)`` for tests: throws when the effects take longer than
    /// `timeout` of real time, naming those still running, instead of hanging the test run:
    /// `try await login.effects.wait(includingFollowUps: true, timeout: .seconds(600))`.
    ///
    /// - Parameters:
    ///   - includingFollowUps: Also wait for the effects further down the chain.
    ///   - timeout: How much real time to wait at most: a guard against a hang, not a measure
    ///     on the effects' clock (which may be a manual clock only the test moves).
    /// - Throws: ``EffectWaitTimeout`` with the effects of this cause still running or suspended.
    public func wait(includingFollowUps: Bool = false, timeout: Duration) async throws(EffectWaitTimeout) {
        guard let group = includingFollowUps ? chain : own else { return }
        try await automaton.wait(for: group, timeout: timeout)
    }

    /// Cancels the effects this cause started, running or suspended.
    ///
    /// - Parameter includingFollowUps: Also cancel every effect further down the chain.
    public func cancel(includingFollowUps: Bool = false) async {
        guard let group = includingFollowUps ? chain : own else { return }
        await automaton.cancelEffects(inGroup: group)
    }
}
