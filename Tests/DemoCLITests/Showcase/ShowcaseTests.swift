import SingletonStoresTestSupport
import Foundation
import Testing
import Stores
import Timers
@testable import demo_cli

/// The showcase's two modes on a manual clock: every frame, at its exact instant.
@Suite("Showcase", .timeLimit(.minutes(1)))
struct ShowcaseTests {
    @Test func sharedScreensShowTheSameTimeInEveryFrameAndThePopupClosesAtZero() async {
        let clock = ManualClock()
        let center = NotificationCenter()
        let boost = BoostTimeManager(
            clock: clock, wallClock: .fixed(Date(timeIntervalSince1970: 0)), storage: InMemoryStorage(),
            center: center, reportIssue: { _ in })
        let (frames, continuation) = AsyncStream.makeStream(of: ShowcaseState.self)
        let run = Task {
            var sink = StreamingSink(continuation: continuation)
            await Showcase.runShared(
                seconds: 3, clock: clock, boost: boost, center: center,
                initial: ShowcaseState(mode: .shared, boostSeconds: 3), sink: &sink)
        }
        var next = frames.makeAsyncIterator()
        #expect(screens(await next.next()) == "00:03|--:--")
        await clock.waitForSleepers(2)  // the countdown and the popup's opening
        await clock.advance(by: .milliseconds(400))
        #expect(screens(await next.next()) == "00:03|00:03")
        for expected in ["00:02|00:02", "00:01|00:01"] {
            await clock.advance(by: .milliseconds(600))
            #expect(screens(await next.next()) == expected)
            await clock.advance(by: .milliseconds(400))
        }
        await clock.advance(by: .milliseconds(600))
        #expect(screens(await next.next()) == "00:00|00:00")
        #expect(screens(await next.next()) == "00:00|closed")
        #expect(await next.next() == nil)
        await run.value
        #expect(!boost.isInBoostTime)
    }

    @Test func naiveScreensDisagreeAfterEveryMainScreenTick() async {
        let clock = ManualClock()
        let (frames, continuation) = AsyncStream.makeStream(of: ShowcaseState.self)
        let run = Task {
            var sink = StreamingSink(continuation: continuation)
            await Showcase.runNaive(
                seconds: 3, clock: clock, initial: ShowcaseState(mode: .naive, boostSeconds: 3), sink: &sink)
        }
        var next = frames.makeAsyncIterator()
        #expect(screens(await next.next()) == "00:03|--:--")
        await clock.waitForSleepers(2)  // the main screen's timer and the popup's opening
        await clock.advance(by: .milliseconds(400))
        #expect(screens(await next.next()) == "00:03|00:03")
        let seconds = [("00:02|00:03", "00:02|00:02"), ("00:01|00:02", "00:01|00:01"), ("00:00|00:01", "00:00|00:00")]
        for (index, (main, popup)) in seconds.enumerated() {
            await clock.waitForSleepers(2)  // both screens' own timers
            await clock.advance(by: .milliseconds(600))
            #expect(screens(await next.next()) == main)
            await clock.waitForSleepers(index < seconds.count - 1 ? 2 : 1)  // the main screen's is done at 00:00
            await clock.advance(by: .milliseconds(400))
            #expect(screens(await next.next()) == popup)
        }
        #expect(screens(await next.next()) == "00:00|closed")
        #expect(await next.next() == nil)
        await run.value
    }
}
