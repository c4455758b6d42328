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
