import SingletonStoresTestSupport
import Foundation
import Testing
import Timers

@Suite(.ownThread) struct ManualClockSettlingTests {
    /// A countdown's task may be held up for longer than any scheduling heuristic would wait (a
    /// slow handler here; a loaded CI machine in real life). `advance` waits for it all the same:
    /// it returns only after every tick of the span was delivered. The blocking sleep stands in
    /// for load; no assertion depends on how long anything took.
    @Test func advanceWaitsForAHeldUpCountdownTask() async {
        let clock = ManualClock()
        let ticks = TickLog()
        let timer = CountdownTimer(clock: clock) { event in
            guard case .tick(let seconds) = event else { return }
            if seconds == 7 || seconds == 3 { Thread.sleep(forTimeInterval: 0.1) }
            ticks.append(seconds)
        }
        timer.start(duration: .seconds(10))
        await clock.advance(by: .seconds(10))
        #expect(ticks.values == Array((0...10).reversed()))
    }

    /// `advance` waits minutes at most for a woken task that has no thread yet (a loaded machine
    /// keeps one waiting that long), but a cancelled caller stops waiting at once: a test past
    /// its time limit ends instead of waiting out the bound. The woken task's executor is held
    /// busy, so the task cannot run until the test lets it. The bound is set to two hours for
    /// the advance: one that waited for the woken task would hang past the test's limit, and no
    /// assertion depends on how long anything took (a loaded machine kept this test waiting for
    /// a thread of the shared pool for minutes, past a one-minute limit).
    @Test(.hangLimit) func aCancelledAdvanceStopsWaitingForAWokenTaskThatCannotRun() async throws {
        let clock = ManualClock()
        let executor = DedicatedThreadExecutor(name: "held executor")
        defer { executor.stop() }
        let woke = TickLog()
        let sleeper = Task(executorPreference: executor) {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
            woke.append(1)
        }
        try await clock.expectSleepers(1)
        // The executor's only thread blocks until released; the woken task queues behind it.
        let release = DispatchSemaphore(value: 0)
        let holder = Task(executorPreference: executor) { Self.block(until: release) }

        // On a thread of its own too, so that it never waits for a thread of the shared pool.
        let caller = DedicatedThreadExecutor(name: "advancing")
        defer { caller.stop() }
        let advancing = ManualClock.$startBoundOverride.withValue(.seconds(7_200)) {
            Task(executorPreference: caller) { await clock.advance(by: .seconds(1)) }
        }
        advancing.cancel()
        await advancing.value
        #expect(clock.now == ManualClock.Instant().advanced(by: .seconds(1)), "the clock moved")
        #expect(woke.values.isEmpty, "advance returned while the woken task still waited for its thread")

        release.signal()
        await holder.value
        try await sleeper.value
        #expect(woke.values == [1], "the woken task ran once its thread was free")
    }

    private static func block(until semaphore: DispatchSemaphore) { semaphore.wait() }
}

private final class TickLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}
