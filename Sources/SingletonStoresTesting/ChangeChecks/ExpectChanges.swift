import Foundation
import Testing

/// How ``expectChanges(on:_:exhaustivity:sourceLocation:during:)`` compares what happened
/// with what the test expected.
public enum ChangeExhaustivity: Sendable, Equatable {
    /// Every change must be expected, and in the expected order: an unexpected change, a
    /// missing one, or another order each fail the test.
    case exhaustive
    /// Only the expected changes are checked: each must happen, in the expected order, with
    /// any other changes allowed before, between and after them.
    case partial
}

/// Runs `action` and fails the test unless it caused exactly the expected store changes.
///
/// Every channel value posted on `center` while `action` runs is recorded — every
/// `StoreCore` change and every typed post — and compared with `expected`:
///
/// ```swift
/// @Test func addingTwoItemsPostsTwoChanges() {
///     let center = NotificationCenter()
///     let cart = CartStore(center: center)
///
///     expectChanges(on: center, [
///         RecordedChange(.cart, StoreChange(old: 0, new: 1)),
///         RecordedChange(.cart, StoreChange(old: 1, new: 2)),
///     ]) {
///         cart.add()
///         cart.add()
///     }
/// }
/// ```
///
/// Under ``ChangeExhaustivity/exhaustive`` (the default) the test fails, at the line of the
/// call, when a change happened that is not in `expected`, when an expected change did not
/// happen, or when the changes came in another order. Each failure lists the expected and the
/// recorded changes, with their old and new values. Under ``ChangeExhaustivity/partial`` only
/// the expected changes are checked.
///
/// Changes must be posted before `action` returns; for changes delivered later or on other
/// threads, use the asynchronous overload, which waits for them.
///
/// - Parameters:
///   - center: The center the stores under test post to; use one per test.
///   - expected: The changes `action` should cause, in order.
///   - exhaustivity: Whether changes not in `expected` fail the test.
///   - sourceLocation: Where failures are reported; the call site by default.
///   - action: The code under test.
/// - Returns: Everything recorded, for further checks.
@discardableResult
public func expectChanges(
    on center: NotificationCenter,
    _ expected: [RecordedChange],
    exhaustivity: ChangeExhaustivity = .exhaustive,
    sourceLocation: SourceLocation = #_sourceLocation,
    during action: () throws -> Void
) rethrows -> [RecordedChange] {
    let recorder = ChangeRecorder(center: center)
    defer { recorder.stop() }
    try action()
    let recorded = recorder.changes
    report(ChangeComparison(expected: expected, recorded: recorded, exhaustivity: exhaustivity), at: sourceLocation)
    return recorded
}

/// Runs an asynchronous `action`, waits up to `timeout` for the expected changes, and fails the
/// test unless it caused exactly those.
///
/// Use it when changes are delivered later or on other threads — a countdown tick, an
/// `OperationQueue` observer, a store written from a detached task. After `action` returns, the
/// check waits until the expected changes have all been recorded or `timeout` has passed on
/// `clock`, then compares as the synchronous overload does:
///
/// ```swift
/// @Test func theCartSyncsInTheBackground() async {
///     let center = NotificationCenter()
///     let cart = CartStore(center: center)
///
///     await expectChanges(on: center, [
///         RecordedChange(.cart, StoreChange(old: 0, new: 1)),
///     ], timeout: .seconds(5)) {
///         syncQueue.addOperation { cart.add() }   // posts on the queue's thread, later
///     }
/// }
/// ```
///
/// The wait ends as soon as the expected changes are in, so a passing check never sleeps; a
/// change that arrives after that, or after the timeout, is not seen. Pass a `ManualClock` (or
/// another test clock) as `clock` to make the timeout itself instant in tests of your own. A
/// wait on such a clock that nothing advances still ends: after ten minutes of real time it
/// fails the test, saying which changes it was still waiting for, instead of hanging the run.
///
/// - Parameters:
///   - center: The center the stores under test post to; use one per test.
///   - expected: The changes `action` should cause, in order.
///   - exhaustivity: Whether changes not in `expected` fail the test.
///   - timeout: How long to wait for the expected changes after `action` returns.
///   - clock: The clock `timeout` is measured on; the continuous clock by default.
///   - sourceLocation: Where failures are reported; the call site by default.
///   - isolation: The actor `action` runs on; the caller's by default.
///   - action: The code under test.
/// - Returns: Everything recorded, for further checks.
@discardableResult
public func expectChanges(
    on center: NotificationCenter,
    _ expected: [RecordedChange],
    exhaustivity: ChangeExhaustivity = .exhaustive,
    timeout: Duration = .seconds(1),
    clock: any Clock<Duration> = ContinuousClock(),
    sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    during action: () async throws -> Void
) async rethrows -> [RecordedChange] {
    try await expectChanges(
        on: center, expected, exhaustivity: exhaustivity, timeout: timeout, clock: clock,
        realTimeBound: expectChangesRealTimeBound, sourceLocation: sourceLocation, during: action)
}

/// How much real time ``expectChanges(on:_:exhaustivity:timeout:clock:sourceLocation:isolation:during:)``
/// waits at most, whatever its clock: ten minutes, for a loaded machine; a guard against a
/// clock that nothing advances.
let expectChangesRealTimeBound = Duration.seconds(600)

/// ``expectChanges(on:_:exhaustivity:timeout:clock:sourceLocation:isolation:during:)``, giving
/// up after `realTimeBound` of real time even when `clock` never reaches the timeout.
@discardableResult
func expectChanges(
    on center: NotificationCenter,
    _ expected: [RecordedChange],
    exhaustivity: ChangeExhaustivity = .exhaustive,
    timeout: Duration,
    clock: any Clock<Duration>,
    realTimeBound: Duration,
    sourceLocation: SourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    during action: () async throws -> Void
) async rethrows -> [RecordedChange] {
    let arrivals = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let recorder = ChangeRecorder(center: center, onRecord: { arrivals.continuation.yield() })
    defer { recorder.stop() }
    try await action()
    let comparison: @Sendable () -> ChangeComparison = {
        ChangeComparison(expected: expected, recorded: recorder.changes, exhaustivity: exhaustivity)
    }
    var endedBy = WaitEnd.changes
    if !comparison().isSatisfied {
        endedBy = await waitForArrivals(
            arrivals.stream, until: { comparison().isSatisfied }, timeout: timeout, clock: clock,
            realTimeBound: realTimeBound)
    }
    arrivals.continuation.finish()
    let final = comparison()
    if endedBy == .realTimeBound {
        Issue.record(
            Comment(
                rawValue: "expectChanges gave up after \(realTimeBound) of real time: its clock (\(type(of: clock))) "
                    + "never reached the timeout of \(timeout). Advance the clock past it, or pass a real clock. "
                    + "The changes it was still waiting for are in the next issue."),
            sourceLocation: sourceLocation)
    }
    report(final, at: sourceLocation)
    return final.recorded
}

/// What ended a wait for changes.
private enum WaitEnd: Sendable {
    /// The expected changes arrived.
    case changes
    /// The timeout passed on the check's clock.
    case timeout
    /// The real-time bound passed first.
    case realTimeBound
}

/// Waits until `isSatisfied()` holds after an arrival, `timeout` passes on `clock`, or
/// `realTimeBound` passes in real time; what ended it.
private func waitForArrivals(
    _ arrivals: AsyncStream<Void>,
    until isSatisfied: @escaping @Sendable () -> Bool,
    timeout: Duration,
    clock: any Clock<Duration>,
    realTimeBound: Duration
) async -> WaitEnd {
    await withTaskGroup(of: WaitEnd?.self) { group in
        group.addTask {
            for await _ in arrivals where isSatisfied() { return .changes }
            return nil
        }
        group.addTask {
            do {
                try await sleep(on: clock, for: timeout)
                return .timeout
            } catch {
                return nil
            }
        }
        group.addTask {
            do {
                try await ContinuousClock().sleep(for: realTimeBound)
                return .realTimeBound
            } catch {
                return nil
            }
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? .changes
    }
}

private func sleep<C: Clock<Duration>>(on clock: C, for duration: Duration) async throws {
    try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}

/// Records one test issue per failure kind, at `location`.
private func report(_ comparison: ChangeComparison, at location: SourceLocation) {
    for failure in comparison.failures {
        Issue.record(Comment(rawValue: comparison.message(for: failure)), sourceLocation: location)
    }
}
