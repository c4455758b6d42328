import Foundation
import Stores
import Testing
import Timers

/// Apps that import Stores alone find the kit's `CountdownStore`, with its `Duration` API, and
/// `BoostEnd` is the countdown's end.
@Suite struct CountdownStoreCompatibilityTests {
    @Test func importingStoresFindsTheKitsCountdown() throws {
        let clock = ManualClock()
        let premium = CountdownStore(key: "premium", clock: clock, storage: InMemoryStorage(), center: NotificationCenter())
        try premium.start(duration: .seconds(60))
        #expect(premium.remainingSeconds == 60)
        try premium.start(duration: .seconds(120))
        try premium.extend(by: .seconds(30))
        #expect(premium.remainingSeconds == 150)
        #expect(throws: CountdownError.alreadyRunning(remainingSeconds: 150)) {
            try premium.startIfIdle(duration: .seconds(10))
        }
        #expect(throws: CountdownError.invalidDuration(.zero)) { try premium.startIfIdle(duration: .zero) }
        try premium.stop()
        #expect(!premium.isRunning)
        try premium.startIfIdle(duration: .seconds(5))
        #expect(premium.remainingSeconds == 5)
        let ends: NotificationChannel<BoostEnd> = premium.ends
        #expect(ends.name == premium.ends.name)
    }
}
