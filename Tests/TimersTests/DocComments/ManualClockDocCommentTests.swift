// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of ManualClock's doc comments (Sources/Timers), verbatim between the markers, so
// that they compile and run. QuickStartTests/DocCommentSnippetTests checks that they agree.
// Doc "Timers/ManualClock.swift" snippet 1: begin
import Synchronization
import Timers

final class Stopwatch<C: Clock<Duration>>: Sendable {
    let clock: C
    let seconds = Mutex(0)

    init(clock: C) { self.clock = clock }

    func run() async throws {
        var next = clock.now
        while true {
            next = next.advanced(by: .seconds(1))
            try await clock.sleep(until: next, tolerance: nil)
            seconds.withLock { $0 += 1 }
        }
    }
}
// Doc "Timers/ManualClock.swift" snippet 1: end
import Testing

// Doc "Timers/ManualClock.swift" snippet 2: begin
@Test func countsEverySecond() async throws {
    let clock = ManualClock()
    let stopwatch = Stopwatch(clock: clock)
    let task = Task { try await stopwatch.run() }
    try await clock.waitForSleepers(1)  // the stopwatch waits for its first second
    await clock.advance(by: .seconds(60))
    #expect(stopwatch.seconds.withLock { $0 } == 60)
    task.cancel()
}
// Doc "Timers/ManualClock.swift" snippet 2: end

func jumpExample(clock: ManualClock) async -> [CountdownTimer.Event] {
// Doc "Timers/ManualClock.swift" snippet 3: begin
let events = Mutex<[CountdownTimer.Event]>([])
let timer = CountdownTimer(clock: clock) { event in events.withLock { $0.append(event) } }
timer.start(duration: CountdownTimer.maximumDuration)
await clock.jump(by: CountdownTimer.maximumDuration)
// events: tick(3_153_600_000), tick(0), ended(.finished)
// Doc "Timers/ManualClock.swift" snippet 3: end
    return events.withLock { $0 }
}

func waitForSleepersExample() async throws {
    let clock = ManualClock()
// Doc "Timers/ManualClock+Sleepers.swift" snippet 1: begin
let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(5))) }
try await clock.waitForSleepers(1)  // the task is asleep now
await clock.advance(by: .seconds(5))
try await task.value
// Doc "Timers/ManualClock+Sleepers.swift" snippet 1: end
}

@Suite struct ManualClockDocCommentTests {
    @Test func aJumpOfACenturyWakesTheCountdownOnce() async {
        let events = await jumpExample(clock: ManualClock())
        #expect(events == [.tick(3_153_600_000), .tick(0), .ended(.finished)])
    }

    @Test func waitingForASleeperBeforeAdvancing() async throws {
        try await waitForSleepersExample()
    }
}
