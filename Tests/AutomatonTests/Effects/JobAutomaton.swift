import SingletonStoresTestSupport
import Automaton
import Testing
import Timers

/// Inputs of the test automaton: `start` runs the effect under test, `finished` is what effects
/// send back, `refuse` is never accepted.
enum Job: Hashable, Sendable {
    case start(String)
    case finished(String)
    case refuse
}

/// An automaton whose state counts accepted inputs and whose `start(name)` starts `effect(name)`.
/// An issue it reports fails the test unless `reportIssue` expects it.
func makeJobAutomaton(
    clock: ManualClock,
    initialEffect: Effect<Job> = .none,
    reportIssue: @escaping @Sendable (EffectIssue) -> Void = { Issue.record("unexpected: \($0)") },
    effect: @escaping @Sendable (String) -> Effect<Job>
) -> EffectAutomaton<Int, Job> {
    EffectAutomaton(
        state: 0, clock: clock, initialEffect: initialEffect, reportIssue: reportIssue,
        mapping: EffectMapping { count, input in
            switch input {
            case let .start(name): (count + 1, effect(name))
            case .finished: (count + 1, .none)
            case .refuse: nil
            }
        })
}

/// An effect that logs its start (with the clock's time in seconds), sleeps until `seconds` on
/// the manual clock, logs its end and sends `finished(name)`; a cancelled sleep is logged too.
func timedJob(
    _ name: String,
    until seconds: Int,
    clock: ManualClock,
    log: Recorder<String>,
    id: EffectID? = nil,
    queue: EffectQueue? = nil
) -> Effect<Job> {
    Effect(id: id, queue: queue) { _ in
        log.append("start \(name) @\(clock.now.offset.components.seconds)")
        do {
            try await clock.sleep(until: clock.at(seconds))
        } catch {
            log.append("cancel \(name)")
            throw error
        }
        log.append("end \(name)")
        return .finished(name)
    }
}

extension AsyncStream where Element: Sendable {
    /// The next `count` elements (fewer if the stream ends first); those that came, with an
    /// issue recorded, when they do not come within ``waitingBound`` (a test never waits for
    /// them forever).
    func prefix(count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Element] {
        let (elements, ended) = await collect(self, within: waitingBound) { $0.count == count }
        if !ended {
            Issue.record(
                "expected \(count) elements within \(waitingBound), got \(elements)", sourceLocation: sourceLocation)
        }
        return elements
    }
}
