// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// CountdownStore's doc-comment examples, verbatim between the markers, so that they always
// compile; QuickStartTests/DocCommentSnippetTests checks that they match. The first uses the
// user's data folder, so it is compiled, not run; the second runs on an in-memory storage.
import Foundation
import Stores
import Testing
import Timers

func countdownStoreOverview() {  // compiled, not run: it would write to the user's data folder
    do {
// Doc "Stores/Countdown/CountdownStore.swift" snippet 1: begin
let premium = CountdownStore(key: "premium")          // <data folder>/premium.json
try premium.start(duration: 30 * 60)                    // a 30-minute premium boost
let token = premium.ticks.observe { seconds in          // every change of the shown seconds
    print(seconds.formatted(.countdown))                // "29:59", "29:58", …
}
let shown = premium.remainingSeconds                    // the same value, from any thread
// Doc "Stores/Countdown/CountdownStore.swift" snippet 1: end
        _ = (token, shown)
    } catch {
        print(error)
    }
}

@Test func countdownStoreStartExample() {
    let premium = CountdownStore(key: "premium", clock: ManualClock(), storage: InMemoryStorage(), center: NotificationCenter())
// Doc "Stores/Countdown/CountdownStore.swift" snippet 2: begin
do {
    try premium.start(duration: 15 * 60)
} catch {
    print("The countdown did not start: \(error)")   // the folder is read-only, the disk is full…
}
// Doc "Stores/Countdown/CountdownStore.swift" snippet 2: end
    #expect(premium.remainingSeconds == 15 * 60)
}
