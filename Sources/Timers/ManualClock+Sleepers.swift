extension ManualClock {
    /// Waits until `count` tasks sleep on the clock: the code under test has reached its next
    /// wait, so that an ``advance(by:)`` that follows wakes it.
    ///
    /// A task you start yourself may not be asleep yet when the next line of the test runs;
    /// wait for it before moving time:
    ///
    /// ```swift
    /// let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5))) }
    /// try await clock.waitForSleepers(1)  // the task is asleep now
    /// await clock.advance(by: .seconds(5))
    /// try await task.value
    /// ```
    ///
    /// Returns as soon as ``sleeperCount`` equals `count`; a passing test never waits longer.
    ///
    /// - Parameters:
    ///   - count: How many tasks should be sleeping.
    ///   - timeout: How much real time to wait at most; ten minutes by default, for a loaded
    ///     machine (a full test suite under the thread sanitizer on two busy cores kept a task
    ///     waiting for a thread more than two minutes).
    /// - Throws: ``SleepersTimeout`` when `count` tasks do not sleep within `timeout` (its
    ///   message gives both counts); `CancellationError` when the waiting task is cancelled.
    public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(600)) async throws {
        let realClock = ContinuousClock()
        let deadline = realClock.now.advanced(by: timeout)
        var turns = 0
        while sleeperCount != count {
            if realClock.now >= deadline { throw SleepersTimeout(expected: count, found: sleeperCount, timeout: timeout) }
            turns += 1
            // Yield first, which is enough when the machine is idle; then sleep a millisecond
            // at a time, so that a task waiting for a thread on a busy machine gets one.
            if turns < 1_000 {
                await Task.yield()
                try Task.checkCancellation()
            } else {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// ``ManualClock/waitForSleepers(_:timeout:)`` waited in vain.
    public struct SleepersTimeout: Error, Equatable, CustomStringConvertible {
        /// How many sleepers the caller waited for.
        public let expected: Int
        /// How many were sleeping when the wait gave up.
        public let found: Int
        /// How long the wait lasted.
        public let timeout: Duration

        /// What was expected and what was found.
        public var description: String {
            "Expected \(expected) tasks sleeping on the manual clock, found \(found) after \(timeout)."
        }
    }
}
