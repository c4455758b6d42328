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
}

private final class TickLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}
