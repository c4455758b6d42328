import Foundation
import SingletonStoresTestSupport
import Testing
@testable import SingletonStores

/// Dates in documents are ISO 8601 text that reads back as exactly the same `Date`.
@Suite("Dates in documents")
struct DocumentDateTests {
    private static func text(_ secondsSinceReferenceDate: Double) throws -> String {
        try DocumentDate.string(from: Date(timeIntervalSinceReferenceDate: secondsSinceReferenceDate))
    }

    @Test func datesAreWrittenInUTCWithTheDigitsTheyNeed() throws {
        #expect(try Self.text(0) == "2001-01-01T00:00:00Z")
        #expect(try DocumentDate.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(try Self.text(768_560_000) == "2025-05-10T08:53:20Z")
        #expect(try Self.text(768_560_000.5) == "2025-05-10T08:53:20.5Z")
        #expect(try Self.text(768_560_000.4316511) == "2025-05-10T08:53:20.4316511Z")
        #expect(try Self.text(1e-7) == "2001-01-01T00:00:00.0000001Z")
        #expect(try Self.text(-1e-7) == "2000-12-31T23:59:59.9999999Z")
        #expect(try Self.text(-0.75) == "2000-12-31T23:59:59.25Z")
        #expect(try DocumentDate.string(from: .distantFuture) == "4001-01-01T00:00:00Z")
        #expect(try DocumentDate.string(from: .distantPast) == "0000-12-30T00:00:00Z")
    }

    @Test func wholeSecondsMatchFoundationsISO8601Format() throws {
        var random = SplitMix(seed: 0x5EED_0001)
        for _ in 0..<2_000 {
            // 1970 to 2100, whole seconds.
            let since1970 = Double(random.next() % 4_102_444_800)
            let date = Date(timeIntervalSince1970: since1970)
            #expect(try DocumentDate.string(from: date) == date.formatted(.iso8601))
        }
    }

    @Test func everyDateReadsBackExactly() throws {
        var random = SplitMix(seed: 0x5EED_0002)
        let earliest = try #require(DocumentDate.date(from: "0000-01-01T00:00:00Z")).timeIntervalSinceReferenceDate
        let end = try #require(DocumentDate.date(from: "9999-12-31T23:59:59Z")).timeIntervalSinceReferenceDate + 1
        var seconds: [Double] = [
            0, -0.0, 1e-300, -1e-300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 0.1, -0.1, earliest, end.nextDown,
        ]
        for _ in 0..<5_000 {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            seconds.append(earliest + unit * (end - earliest))  // anywhere in the range
            seconds.append(768_560_000 + unit * 1e9 - 5e8)  // the clock readings of this century
            seconds.append((unit - 0.5) * 1e-3)  // near 2001-01-01, where a Double is finest
            seconds.append(Double(bitPattern: random.next()))  // any Double at all
        }
        for value in seconds {
            let date = Date(timeIntervalSinceReferenceDate: value)
            guard value.isFinite, value >= earliest, value < end else {
                #expect(throws: DocumentDate.UnwritableDate.self) { try DocumentDate.string(from: date) }
                continue
            }
            let text = try DocumentDate.string(from: date)
            let back = DocumentDate.date(from: text)
            #expect(back?.timeIntervalSinceReferenceDate == value, "\(value) was written as \(text)")
        }
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, 252_423_993_600, -63_200_000_000, 1e300])
    func datesOutsideTheYears0000To9999CantBeWritten(seconds: Double) {
        #expect(throws: DocumentDate.UnwritableDate.self) {
            try DocumentDate.string(from: Date(timeIntervalSinceReferenceDate: seconds))
        }
    }

    @Test func offsetsAndLongFractionsAreRead() throws {
        let utc = try #require(DocumentDate.date(from: "2025-05-10T08:53:20Z"))
        #expect(DocumentDate.date(from: "2025-05-10T17:53:20+09:00") == utc)
        #expect(DocumentDate.date(from: "2025-05-10T03:23:20-05:30") == utc)
        #expect(DocumentDate.date(from: "2025-05-10T08:53:20.000Z") == utc)
        #expect(DocumentDate.date(from: "2025-05-10T08:53:20.25Z") == utc.addingTimeInterval(0.25))
        #expect(DocumentDate.date(from: "2024-02-29T00:00:00Z") != nil)
        #expect(DocumentDate.date(from: "2000-02-29T00:00:00Z") != nil)
        let long = "2025-05-10T08:53:20." + String(repeating: "1", count: DocumentDate.maximumFractionDigits) + "Z"
        #expect(DocumentDate.date(from: long) != nil)
    }

    @Test(arguments: [
        "", "2025", "2025-05-08", "2025-05-10T08:53:20", "2025-05-08 09:33:20Z", "2025-05-08t09:33:20z",
        "2025-5-08T09:33:20Z", "+2025-05-10T08:53:20Z", "2025-05-10T08:53:20.Z", "2025-05-10T08:53:20ZZ",
        "2025-05-10T08:53:20+0900", "2025-05-10T08:53:20+24:00", "2025-05-10T08:53:20+09:60",
        "2025-00-08T09:33:20Z", "2025-13-08T09:33:20Z", "2025-05-00T09:33:20Z", "2025-04-31T09:33:20Z",
        "2025-02-29T09:33:20Z", "1900-02-29T00:00:00Z", "2025-05-08T24:00:00Z", "2025-05-08T09:60:00Z",
        "2025-05-08T23:59:60Z", "２０２５-05-08T09:33:20Z", "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01",
        "2025-05-10T08:53:20." + String(repeating: "1", count: DocumentDate.maximumFractionDigits + 1) + "Z",
        "9999-12-31T23:59:59.99999999999999999999Z",  // rounds to the year 10000, which can't be written
    ])
    func textThatIsNotADateIsRefused(text: String) {
        #expect(DocumentDate.date(from: text) == nil)
    }
}
