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

    /// Cancels the effects this cause started, running or suspended.
    ///
    /// - Parameter includingFollowUps: Also cancel every effect further down the chain.
    public func cancel(includingFollowUps: Bool = false) async {
        guard let group = includingFollowUps ? chain : own else { return }
        await automaton.cancelEffects(inGroup: group)
    }
}
