import SingletonStoresLocking

/// A mistake in the effects an ``EffectAutomaton`` was given, found while it runs and reported
/// instead of crashing.
///
/// Issues go to the automaton's `reportIssue`, which prints them to standard error by default.
/// Tests can collect them instead:
///
/// ```swift
/// let automaton = EffectAutomaton(
///     state: .loggedOut, clock: clock,
///     reportIssue: { issue in Issue.record("\(issue)") },  // fails the test
///     mappings: LoginFlow.mappings()
/// )
/// ```
public enum EffectIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// An effect named a queue that the automaton already knows under another policy or delay.
    /// A name is one queue, so that effect was not started; the existing queue is unchanged.
    ///
    /// - Parameters:
    ///   - queue: The declaration the refused effect named.
    ///   - existing: The declaration the automaton met first, which the queue keeps.
    case conflictingQueue(EffectQueue, existing: EffectQueue)

    /// Prints the issue to standard error, prefixed with `Automaton:`.
    public static let printToStandardError: @Sendable (EffectIssue) -> Void = { issue in
        writeLineToStandardError("Automaton: \(issue)")
    }

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case let .conflictingQueue(queue, existing):
            "Effects name the queue \"\(queue.name)\" in two ways: \(existing.declaration), then "
                + "\(queue.declaration). A name is one queue, so the effect with the second one was "
                + "not started. Declare the queue once (extension EffectQueue { static let … = "
                + "\(existing.declaration) }) and use it in every effect, or give the other queue a "
                + "name of its own."
        }
    }
}
