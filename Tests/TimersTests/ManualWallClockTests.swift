import Foundation
import Testing
import Timers

@Suite struct ManualWallClockTests {
    @Test func readsTheDateItWasSetTo() {
        let wall = ManualWallClock(now: Date(timeIntervalSince1970: 100))
        #expect(wall.now == Date(timeIntervalSince1970: 100))
        #expect(wall.wallClock.now() == Date(timeIntervalSince1970: 100))

        wall.set(to: Date(timeIntervalSince1970: 50))
        #expect(wall.wallClock.now() == Date(timeIntervalSince1970: 50))
    }

    @Test func jumpsForwardsAndBackwards() {
        let wall = ManualWallClock()
        wall.advance(by: .seconds(3_600))
        #expect(wall.now == Date(timeIntervalSinceReferenceDate: 3_600))
        wall.advance(by: .milliseconds(-7_200_500))
        #expect(wall.now == Date(timeIntervalSinceReferenceDate: -3_600.5))
    }

    @Test func fixedWallClockNeverMoves() {
        let wall = WallClock.fixed(Date(timeIntervalSince1970: 7))
        #expect(wall.now() == Date(timeIntervalSince1970: 7))
        #expect(wall.now() == Date(timeIntervalSince1970: 7))
    }
}

/// One manual clock for both time lines: a test moves one clock, and the wall clock follows.
@Suite("ManualClock's wall clock")
struct ManualClockWallClockTests {
    @Test func advancingAndJumpingMoveTheWallClockToo() async {
        let clock = ManualClock()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let wall = clock.wallClock(startingAt: start)
        #expect(wall.now() == start)
        await clock.advance(by: .seconds(90))
        #expect(wall.now() == start.addingTimeInterval(90))
        await clock.jump(by: .seconds(86_400))
        #expect(wall.now() == start.addingTimeInterval(86_490))
        #expect(wall.duration(until: start.addingTimeInterval(86_500)) == .seconds(10))
    }
}
