import SingletonStoresTestSupport
import Foundation
import Testing
import Stores
import Timers
@testable import demo_cli

/// The showcase's two modes on a manual clock: every frame, at its exact instant.
@Suite("Showcase", .hangLimit)
struct ShowcaseTests {
    @Test func sharedScreensShowTheSameTimeInEveryFrameAndThePopupClosesAtZero() async throws {
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
        try await clock.expectSleepers(2)  // the countdown and the popup's opening
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

    @Test func naiveScreensDisagreeAfterEveryMainScreenTick() async throws {
        let clock = ManualClock()
        let (frames, continuation) = AsyncStream.makeStream(of: ShowcaseState.self)
        let run = Task {
            var sink = StreamingSink(continuation: continuation)
            await Showcase.runNaive(
                seconds: 3, clock: clock, initial: ShowcaseState(mode: .naive, boostSeconds: 3), sink: &sink)
        }
        var next = frames.makeAsyncIterator()
        #expect(screens(await next.next()) == "00:03|--:--")
        try await clock.expectSleepers(2)  // the main screen's timer and the popup's opening
        await clock.advance(by: .milliseconds(400))
        #expect(screens(await next.next()) == "00:03|00:03")
        let seconds = [("00:02|00:03", "00:02|00:02"), ("00:01|00:02", "00:01|00:01"), ("00:00|00:01", "00:00|00:00")]
        for (index, (main, popup)) in seconds.enumerated() {
            try await clock.expectSleepers(2)  // both screens' own timers
            await clock.advance(by: .milliseconds(600))
            #expect(screens(await next.next()) == main)
            try await clock.expectSleepers(index < seconds.count - 1 ? 2 : 1)  // the main screen's is done at 00:00
            await clock.advance(by: .milliseconds(400))
            #expect(screens(await next.next()) == popup)
        }
        #expect(screens(await next.next()) == "00:00|closed")
        #expect(await next.next() == nil)
        await run.value
    }
}

/// The popup of the shared showcase follows Swift Observation: with no notification reaching
/// the showcase, the popup still counts down while the main screen stands still.
@Suite("Showcase paths", .hangLimit)
struct ShowcasePathTests {
    @Test func thePopupIsDrivenByObservationAndTheMainScreenByNotifications() async throws {
        let clock = ManualClock()
        let showcaseCenter = NotificationCenter()
        // The boost posts to a center the showcase does not observe: only Observation reaches it.
        let boost = BoostTimeManager(
            clock: clock, wallClock: .fixed(Date(timeIntervalSince1970: 0)), storage: InMemoryStorage(),
            center: NotificationCenter(), reportIssue: { _ in })
        let (frames, continuation) = AsyncStream.makeStream(of: ShowcaseState.self)
        let run = Task {
            var sink = StreamingSink(continuation: continuation)
            await Showcase.runShared(
                seconds: 3, clock: clock, boost: boost, center: showcaseCenter,
                initial: ShowcaseState(mode: .shared, boostSeconds: 3), sink: &sink)
        }
        var next = frames.makeAsyncIterator()
        try await clock.expectSleepers(2)  // the countdown and the popup's opening
        await clock.advance(by: .milliseconds(400))  // the popup opens at 00:03
        // The main screen draws nothing until a notification reaches it: a post by hand makes
        // a frame. If the popup's opening has not been handled yet, the frame before it shows
        // no popup; the store stays at 00:03 meanwhile, so the popup opens at 00:03.
        NotificationChannel.boostTime.post(3, object: 3, center: showcaseCenter)
        #expect(await readFrames(from: &next, until: "00:03|00:03", allowing: ["00:03|--:--"]))

        await clock.advance(by: .milliseconds(1_600))  // two ticks, seen only through Observation
        #expect(await waitUntil { boost.remainingSeconds == 1 })
        // A second post moves the main screen to the store's value. The popup shows 00:01 in that
        // frame, or in the one its Observation news draws if that is still on its way; it
        // opened at 00:03, so only Observation can have told it.
        NotificationChannel.boostTime.post(1, object: 1, center: showcaseCenter)
        #expect(await readFrames(from: &next, until: "00:01|00:01", allowing: ["00:01|00:03", "00:01|00:02"]))
        NotificationChannel.boostEnded.post(.stopped, center: showcaseCenter)
        #expect(screens(await next.next()) == "00:01|closed")
        await run.value
    }
}

/// Reads frames until one shows `expected`; false if a frame other than `allowed` comes first
/// or the showcase ends.
private func readFrames(
    from iterator: inout AsyncStream<ShowcaseState>.Iterator, until expected: String, allowing allowed: Set<String>
) async -> Bool {
    while let frame = await iterator.next() {
        let shown = screens(frame)
        if shown == expected { return true }
        guard allowed.contains(shown) else {
            Issue.record("unexpected frame \(shown) before \(expected)")
            return false
        }
    }
    return false
}
