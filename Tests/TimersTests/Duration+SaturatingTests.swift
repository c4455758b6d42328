import Testing
@testable import Timers

@Suite struct DurationSaturatingTests {
    @Test func addsAndSubtractsNormallyInRange() {
        #expect(Duration.seconds(2).saturatingAdding(.milliseconds(500)) == .milliseconds(2_500))
        #expect(Duration.seconds(2).saturatingSubtracting(.seconds(5)) == .seconds(-3))
    }

    @Test func clampsAtBothEndsInsteadOfTrapping() {
        #expect(Duration.greatest.saturatingAdding(.nanoseconds(1)) == .greatest)
        #expect(Duration.least.saturatingAdding(.nanoseconds(-1)) == .least)
        #expect(Duration.least.saturatingSubtracting(.nanoseconds(1)) == .least)
        #expect(Duration.greatest.saturatingSubtracting(.nanoseconds(-1)) == .greatest)
        #expect(Duration.zero.saturatingSubtracting(.least) == .greatest)
    }

    @Test func roundsUpToWholeSecondsAndClampsToInt() {
        #expect(Duration.milliseconds(89_001).secondsRoundedUp == 90)
        #expect(Duration.seconds(90).secondsRoundedUp == 90)
        #expect(Duration.zero.secondsRoundedUp == 0)
        #expect(Duration.milliseconds(-1_500).secondsRoundedUp == -1)
        #expect(Duration.greatest.secondsRoundedUp == Int.max)
        #expect(Duration.least.secondsRoundedUp == Int.min)
    }
}
