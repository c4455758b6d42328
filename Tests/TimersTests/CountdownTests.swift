import Testing
@testable import Timers

@Suite struct CountdownTests {
    typealias Instant = ManualClock.Instant

    let countdown = Countdown(deadline: Instant.seconds(90))

    private func at(milliseconds: Int64) -> Instant {
        Instant(offset: .milliseconds(milliseconds))
    }

    @Test func remainingIsTheTimeToTheDeadlineAndNeverNegative() {
        #expect(countdown.remaining(at: .seconds(0)) == .seconds(90))
        #expect(countdown.remaining(at: at(milliseconds: 999)) == .milliseconds(89_001))
        #expect(countdown.remaining(at: .seconds(90)) == .zero)
        #expect(countdown.remaining(at: .seconds(1_000)) == .zero)
    }

    @Test func shownSecondsRoundUpSoZeroAppearsExactlyAtTheDeadline() {
        #expect(countdown.shownSeconds(at: .seconds(0)) == 90)
        #expect(countdown.shownSeconds(at: at(milliseconds: 999)) == 90)  // 89.001 s left
        #expect(countdown.shownSeconds(at: .seconds(1)) == 89)
        #expect(countdown.shownSeconds(at: at(milliseconds: 89_999)) == 1)
        #expect(countdown.shownSeconds(at: .seconds(90)) == 0)
        #expect(countdown.shownSeconds(at: .seconds(91)) == 0)
        #expect(!countdown.hasEnded(at: at(milliseconds: 89_999)))
        #expect(countdown.hasEnded(at: .seconds(90)))
    }

    @Test func aShownValueNeverLastsLongerThanASecond() {
        // Sample every 10 ms: each value n is shown exactly on [deadline - n s, deadline - (n-1) s).
        var firstSeen: [Int: Int64] = [:]
        var lastSeen: [Int: Int64] = [:]
        for millisecond in stride(from: Int64(0), through: 90_000, by: 10) {
            let shown = countdown.shownSeconds(at: at(milliseconds: millisecond))
            firstSeen[shown] = firstSeen[shown] ?? millisecond
            lastSeen[shown] = millisecond
        }
        for shown in 1...89 {
            #expect(firstSeen[shown] == (90 - Int64(shown)) * 1_000)
            #expect(lastSeen[shown] == (91 - Int64(shown)) * 1_000 - 10)
        }
        #expect(firstSeen[0] == 90_000)
    }

    @Test func nextChangeIsTheNextWholeSecondBeforeTheDeadline() {
        #expect(countdown.nextChange(after: .seconds(0)) == .seconds(1))
        #expect(countdown.nextChange(after: at(milliseconds: 999)) == .seconds(1))
        #expect(countdown.nextChange(after: .seconds(1)) == .seconds(2))
        #expect(countdown.nextChange(after: at(milliseconds: 89_500)) == .seconds(90))
        #expect(countdown.nextChange(after: .seconds(90)) == nil)
        #expect(countdown.nextChange(after: .seconds(95)) == nil)
        let offGrid = Countdown(deadline: Instant(offset: .milliseconds(2_300)))
        #expect(offGrid.nextChange(after: .seconds(0)) == Instant(offset: .milliseconds(300)))
        #expect(offGrid.shownSeconds(at: .seconds(0)) == 3)
    }

    @Test func hugeRemainingTimesShowIntMaxInsteadOfTrapping() {
        let far = Countdown(deadline: Instant(offset: Duration(attoseconds: .max)))
        #expect(far.shownSeconds(at: .seconds(0)) == Int.max)
        #expect(far.nextChange(after: .seconds(0)) != nil)
        let past = Countdown(deadline: Instant(offset: Duration(attoseconds: .min)))
        #expect(past.remaining(at: .seconds(0)) == .zero)
        #expect(past.shownSeconds(at: .seconds(0)) == 0)
    }
}
