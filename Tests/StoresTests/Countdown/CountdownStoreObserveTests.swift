import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import Observation
import SingletonStores
import StoreObservation
import Testing
import Timers

/// `CountdownStore.observe` hears every change a screen shows — a pause, a resume and an
/// extension too, not only the ticks — and so does Swift Observation: a widget needs neither
/// to learn of a pause.
@Suite("CountdownStore observe: pause, resume, extend", .ownThread)
struct CountdownStoreObserveTests {
    /// A stub countdown of a minute, observed, with what `observe` heard and what Swift
    /// Observation announced, counted.
    private struct Observed {
        let clock = ManualClock()
        let countdown: CountdownStore
        let heard = Recorder<Int>()
        let announced = Recorder<Int>()
        let token: ObservationToken

        init() {
            countdown = CountdownStore(stub: .seconds(60), clock: clock)
            let heard = self.heard
            token = countdown.observe { heard.append($0) }
        }

        /// Counts the next change Swift Observation announces for what a screen reads.
        func track() {
            let announced = self.announced
            withObservationTracking {
                _ = countdown.remainingSeconds
                _ = countdown.isPaused
            } onChange: {
                announced.append(1)
            }
        }

        var announcements: Int { announced.values.count }
    }

    @Test func aPauseIsHeardWithTheFrozenSeconds() async throws {
        let observed = Observed()
        defer { observed.token.cancel() }
        await observed.clock.advance(by: .seconds(5))
        #expect(observed.heard.values == [59, 58, 57, 56, 55])
        observed.track()
        try observed.countdown.setPaused(true)
        #expect(observed.countdown.isPaused)
        #expect(observed.heard.values.suffix(2) == [55, 55], "the pause is heard, with the seconds it froze at")
        #expect(observed.heard.values.count == 6)
        #expect(observed.announcements == 1, "and announced to Swift Observation")
    }

    @Test func aResumeIsHeard() async throws {
        let observed = Observed()
        defer { observed.token.cancel() }
        try observed.countdown.setPaused(true)
        await observed.clock.advance(by: .seconds(5))
        observed.track()
        try observed.countdown.setPaused(false)
        #expect(!observed.countdown.isPaused)
        #expect(observed.heard.values == [60, 60], "the pause, then the resume")
        #expect(observed.announcements == 1)
        await observed.clock.advance(by: .seconds(1))
        #expect(observed.heard.values == [60, 60, 59], "and it counts down again")
    }

    @Test func anExtensionIsHeardRunningOrPaused() throws {
        let observed = Observed()
        defer { observed.token.cancel() }
        observed.track()
        try observed.countdown.extend(by: .seconds(30))
        #expect(observed.heard.values == [90])
        #expect(observed.announcements == 1)
        try observed.countdown.setPaused(true)
        observed.track()
        try observed.countdown.extend(by: .seconds(30))
        #expect(observed.countdown.remainingSeconds == 120)
        #expect(observed.heard.values == [90, 90, 120], "the pause, then the paused countdown's extension")
        #expect(observed.announcements == 2)
    }

    @Test func eachPauseAndResumeIsPostedOnceOnItsChannel() throws {
        let center = NotificationCenter()
        let countdown = CountdownStore(key: "sleep-timer", clock: ManualClock(), storage: InMemoryStorage(), center: center)
        let posted = Recorder<Bool>()
        let token = countdown.pauses.observe(center: center) { posted.append($0) }
        defer { token.cancel() }
        #expect(countdown.pauses.name.rawValue == "SingletonStores.CountdownStore.sleep-timer.paused")
        try countdown.setPaused(true)  // nothing runs: nothing to pause
        #expect(posted.values.isEmpty)
        try countdown.setPaused(false)
        #expect(posted.values.isEmpty)
        #expect(throws: Never.self) { try countdown.start(duration: .seconds(60)) }
        try countdown.setPaused(true)
        try countdown.setPaused(true)
        try countdown.setPaused(false)
        try countdown.setPaused(false)
        #expect(posted.values == [true, false])
        try countdown.setPaused(true)
        #expect(throws: Never.self) { try countdown.stop() }
        #expect(posted.values == [true, false, true], "a paused countdown stopped ends; it does not resume")
    }

    @Test func aPauseAndAResumeMadeByAnotherInstanceAreHeard() async throws {
        try await withTemporaryFolder { folder in
            // A wall clock of the test's own: on the system's, a loaded machine that takes a
            // second between the write and the read would show 299.
            let wall = WallClock.fixed(Date(timeIntervalSince1970: 1_700_000_000))
            let here = CountdownStore(
                key: "sleep-timer", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .automatic)
            let elsewhere = CountdownStore(
                key: "sleep-timer", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            try elsewhere.start(duration: .seconds(300))
            #expect(await waitUntil { here.remainingSeconds == 300 })
            let heard = Recorder<Int>()
            let token = here.observe { heard.append($0) }
            defer { token.cancel() }
            // Each change followed from the other instance is heard once it is this store's state
            // (under load the two can arrive a moment apart).
            try elsewhere.setPaused(true)
            #expect(await waitUntil { here.isPaused && !heard.values.isEmpty })
            let afterPause = heard.values.count
            try elsewhere.setPaused(false)
            #expect(await waitUntil { !here.isPaused && heard.values.count > afterPause })
            #expect(heard.values.allSatisfy { $0 == 300 }, "\(heard.values)")
        }
    }
}
