import Foundation
import Testing
import Timers

@Suite struct CountdownFormatStyleTests {
    @Test(arguments: [
        (0, "00:00"), (5, "00:05"), (59, "00:59"), (60, "01:00"), (754, "12:34"), (755, "12:35"),
        (3_599, "59:59"), (3_600, "1:00:00"), (3_725, "1:02:05"), (36_000, "10:00:00"),
    ])
    func formatsMinutesAndSecondsAndHoursFromOneHourUp(seconds: Int, text: String) {
        #expect(seconds.formatted(.countdown) == text)
        #expect(CountdownFormatStyle().format(seconds) == text)
    }

    @Test func negativeValuesShowZeroAndExtremesDoNotTrap() {
        #expect((-1).formatted(.countdown) == "00:00")
        #expect(Int.min.formatted(.countdown) == "00:00")
        #expect(Int.max.formatted(.countdown).hasSuffix(":07"))
    }
}
