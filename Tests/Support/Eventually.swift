import Foundation
import Testing
import Timers

/// How long the waiting helpers wait before they call a test failed: long enough for a loaded
/// CI machine, where a task may wait minutes for a thread (the whole suite under the thread
/// sanitizer with two other builds running). A passing test never waits this long: the helpers
/// return as soon as their condition holds. Shorter than ``Trait/hangLimit``, so the wait that
/// gives up is what the failure names.
package let waitingBound = Duration.seconds(600)

/// Checks `condition` every few milliseconds until it holds or `bound` has passed; whether it
/// held. For news that arrives from another thread or process, in a test that may block its
/// thread (see ``OwnThreadTrait``).
package func eventually(within bound: Duration = waitingBound, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + bound
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
    return true
}

/// ``eventually(within:_:)`` for async code: yields to other tasks, then sleeps a millisecond at
/// a time, until `condition` holds or `bound` has passed; whether it held. Runs on the caller's
/// actor, so `condition` may read that actor's state.
///
/// The bound is real time, not a number of turns: on a loaded machine the task that makes the
/// condition true may wait a long time for a thread, however often this one yields.
package func waitUntil(
    within bound: Duration = waitingBound,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + bound
    var turns = 0
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        turns += 1
        if turns < 1_000 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}

extension ManualClock {
    /// Waits until `count` tasks sleep on the clock (``ManualClock/waitForSleepers(_:timeout:)``)
    /// within `bound` (``waitingBound`` by default), and throws ``ManualClock/SleepersTimeout``
    /// when they do not, which fails the test and ends it.
    ///
    /// A test must not go on after such a failure: it would advance the clock before the task
    /// it waited for sleeps, and then await a deadline that nothing reaches any more.
    package func expectSleepers(_ count: Int, within bound: Duration = waitingBound) async throws {
        try await waitForSleepers(count, timeout: bound)
    }
}
