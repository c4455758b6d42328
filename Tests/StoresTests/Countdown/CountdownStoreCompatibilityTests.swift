import Foundation
import Stores
import Testing
import Timers

/// Apps written against main keep compiling and behaving: `import Stores` finds
/// `CountdownStore`, its seconds-based spellings forward to the `Duration` API, and `BoostEnd`
/// is the countdown's end.
@Suite struct CountdownStoreCompatibilityTests {
    @available(*, deprecated, message: "calls the deprecated spellings on purpose")
    @Test func theSecondsSpellingsOfMainStillWork() throws {
        let clock = ManualClock()
        let premium = CountdownStore(key: "premium", clock: clock, storage: InMemoryStorage(), center: NotificationCenter())
        premium.startCountDown(duration: 60)
        #expect(premium.remainingSeconds == 60)
        try premium.start(duration: 120)
        premium.extend(by: 30)
        #expect(premium.remainingSeconds == 150)
        #expect(throws: BoostError.alreadyRunning(remainingSeconds: 150)) { try premium.startCountDownIfIdle(duration: 10) }
        #expect(throws: BoostError.invalidDuration(0)) { try premium.startCountDownIfIdle(duration: 0) }
        premium.stopCountDown()
        #expect(!premium.isRunning)
        try premium.startCountDownIfIdle(duration: 5)
        #expect(premium.remainingSeconds == 5)
        let ends: NotificationChannel<BoostEnd> = premium.ends
        #expect(ends.name == premium.ends.name)
    }
}
