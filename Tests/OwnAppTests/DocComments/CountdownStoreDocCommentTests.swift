// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// CountdownStore's doc-comment examples, verbatim between the markers, so that they always
// compile; QuickStartTests/DocCommentSnippetTests checks that they match. The first uses the
// user's data folder, so it is compiled, not run; the second runs on a stub.
import Foundation
import SingletonStores
import Testing
import Timers

func countdownStoreOverview() {  // compiled, not run: it would write to the user's data folder
    do {
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 1: begin
let arrival = CountdownStore(key: "order-arrival")       // <data folder>/order-arrival.json
try arrival.start(duration: .seconds(15 * 60))
let token = arrival.observe { seconds in                 // every change of the shown seconds
    print(seconds.formatted(.countdown))                 // "14:59", "14:58", …
}
let shown = arrival.remainingSeconds                     // the same value, from any thread
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 1: end
        _ = (token, shown)
    } catch {
        print(error)
    }
}

@Test func countdownStoreStartExample() {
    let arrival = CountdownStore(stub: .zero, clock: ManualClock())
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 2: begin
do {
    try arrival.start(duration: .seconds(15 * 60))
} catch {
    print("The countdown did not start: \(error)")   // the folder is read-only, the disk is full…
}
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 2: end
    #expect(arrival.remainingSeconds == 15 * 60)
}

@Test func countdownStoreSetPausedExample() async throws {
    let clock = ManualClock()
    let countdown = CountdownStore(stub: .zero, clock: clock)
    try countdown.start(duration: .seconds(90))
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 3: begin
try countdown.setPaused(true)    // the screen shows the time left, frozen
try countdown.setPaused(false)   // and it counts down again
// Doc "SingletonStores/Countdown/CountdownStore.swift" snippet 3: end
    #expect(!countdown.isPaused)
    #expect(countdown.remainingSeconds == 90)
}

/// A paused countdown keeps its time left while the clock moves; resumed, it counts on from there.
@Test func setPausedFreezesAndResumesTheTimeLeft() async throws {
    let clock = ManualClock()
    let countdown = CountdownStore(stub: .zero, clock: clock)
    try countdown.start(duration: .seconds(90))
    await clock.advance(by: .seconds(10))
    try countdown.setPaused(true)
    #expect(countdown.isPaused)
    await clock.advance(by: .seconds(30))
    #expect(countdown.remainingSeconds == 80)
    try countdown.setPaused(false)
    await clock.advance(by: .seconds(5))
    #expect(!countdown.isPaused)
    #expect(countdown.remainingSeconds == 75)
}
