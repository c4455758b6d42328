import Foundation

/// A `Date` as the ISO 8601 text documents store it, exactly: `2025-05-10T08:53:20.4316511Z`.
///
/// The text is in UTC with as many fractional-second digits as it takes to read back the very
/// same `Date` (the shortest decimal that does): none for a whole second, typically six or
/// seven for a reading of the system clock. Reading accepts any number of fractional digits (up
/// to ``maximumFractionDigits``) and a `Z` or `±HH:MM` offset, so a date typed by hand such as
/// `2025-05-10T17:53:20+09:00` loads too. Years 0000 to 9999 (`Date.distantPast` and
/// `Date.distantFuture` included), in the proleptic Gregorian calendar; no leap seconds
/// (`:60`), as `Date` has none.
enum DocumentDate {
    /// The most fractional-second digits read: enough for the longest a date is ever written
    /// with (a `Date` a few nanoseconds from 2001-01-01 needs hundreds).
    static let maximumFractionDigits = 400

    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    private static let referenceDateSince1970: Int64 = 978_307_200
    /// 0000-01-01T00:00:00Z, in seconds since 1970.
    private static let earliestSince1970 = daysFromCivil(year: 0, month: 1, day: 1) * 86_400
    /// 10000-01-01T00:00:00Z, in seconds since 1970: the first instant that can't be written.
    private static let endSince1970 = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400

    /// Words every message about an unwritable date contains, so that advice can tell it apart.
    static let outOfRangeMarker = "documents hold dates of the years 0000–9999"

    /// Why a date can't be written.
    struct UnwritableDate: Error, CustomStringConvertible {
        /// The date's seconds since 2001-01-01.
        let secondsSinceReferenceDate: Double

        var description: String {
            let when = secondsSinceReferenceDate > 0 ? "after the year 9999" : "before the year 0000"
            return "a date \(when) can't be saved (\(secondsSinceReferenceDate) s from 2001-01-01); documents hold "
                + "dates of the years 0000–9999. If it comes from the device's clock, check the date and time"
        }
    }

    // MARK: Writing

    /// The ISO 8601 text of `date`, from which ``date(from:)`` reads back the same `Date`.
    ///
    /// - Throws: ``UnwritableDate`` for a date that is not finite or not within the years
    ///   0000–9999.
    static func string(from date: Date) throws(UnwritableDate) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        let failure = UnwritableDate(secondsSinceReferenceDate: seconds)
        guard isWritable(date) else { throw failure }
        // The shortest decimal that reads back as `seconds`, split into whole seconds (rounded
        // down) and the digits of the fraction of a second.
        let decimal = ShortestDecimal(seconds)
        guard let magnitude = decimal.integer else { throw failure }
        var whole = decimal.isNegative ? -magnitude : magnitude
        var fraction = decimal.fraction
        if decimal.isNegative, !fraction.isEmpty {
            whole -= 1
            fraction = complement(fraction)
        }
        let since1970 = whole + referenceDateSince1970
        guard since1970 >= earliestSince1970, since1970 < endSince1970 else { throw failure }
        let text = format(since1970: since1970, fraction: fraction)
        // The decimal reads back exactly by construction; checking costs one parse and turns a
        // mistake into an error instead of a date that silently moved.
        guard self.date(from: text) == date else { throw failure }
        return text
    }

    /// Whether `date` lies in the years 0000–9999, so that ``string(from:)`` can write it.
    static func isWritable(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSinceReferenceDate
        return seconds >= Double(earliestSince1970 - referenceDateSince1970)
            && seconds < Double(endSince1970 - referenceDateSince1970)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` for whole seconds since 1970 within the years 0000–9999.
    private static func format(since1970: Int64, fraction: [UInt8]) -> String {
        let days = floorDivide(since1970, 86_400)
        let secondOfDay = since1970 - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(21 + fraction.count)
        append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3_600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &bytes)
        if !fraction.isEmpty {
            bytes.append(UInt8(ascii: "."))
            for digit in fraction { bytes.append(digit + UInt8(ascii: "0")) }
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the decimal digits of `value` (`0 ..< 10^width`), zero-padded to `width`.
    private static func append(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(value / divisor % 10) + UInt8(ascii: "0"))
            divisor /= 10
        }
    }

    // MARK: Reading

    /// The date an ISO 8601 text names, or `nil` when the text is not a date this format reads.
    ///
    /// A date read is always one ``string(from:)`` can write: a fraction that rounds up to the
    /// year 10000 is refused.
    static func date(from text: String) -> Date? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T"),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        var fraction: [UInt8] = []
        if reader.skip(".") {
            fraction = reader.digits(upTo: maximumFractionDigits)
            guard !fraction.isEmpty, reader.nextIsNotDigit else { return nil }
        }
        var offset: Int64 = 0
        if !reader.skip("Z") {
            guard let sign: Int64 = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil,
                let hours = reader.number(digits: 2), reader.skip(":"),
                let minutes = reader.number(digits: 2), hours <= 23, minutes <= 59
            else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard reader.isAtEnd,
            (0...9_999).contains(year), (1...12).contains(month),
            (1...daysInMonth(month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let since1970 =
            daysFromCivil(year: year, month: month, day: day) * 86_400
            + hour * 3_600 + minute * 60 + second - offset
        guard since1970 >= earliestSince1970, since1970 < endSince1970 else { return nil }
        let whole = since1970 - referenceDateSince1970
        while fraction.last == 0 { fraction.removeLast() }
        // One decimal, converted once (correctly rounded), so that what `string(from:)` wrote
        // reads back as the same `Double`.
        let decimal: String
        if fraction.isEmpty {
            decimal = String(whole)
        } else if whole >= 0 {
            decimal = "\(whole).\(digitString(fraction))"
        } else {
            // whole + 0.f = -((-whole - 1) + (1 - 0.f))
            decimal = "-\(-whole - 1).\(digitString(complement(fraction)))"
        }
        guard let seconds = Double(decimal) else { return nil }
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        return isWritable(date) ? date : nil
    }

    /// A cursor over the bytes of a date's text.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        var nextIsNotDigit: Bool { isAtEnd || !isDigit(bytes[index]) }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func number(digits count: Int) -> Int64? {
            guard bytes.count - index >= count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Up to `limit` decimal digits, as digit values.
        mutating func digits(upTo limit: Int) -> [UInt8] {
            var values: [UInt8] = []
            while index < bytes.count, values.count < limit, isDigit(bytes[index]) {
                values.append(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return values
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    // MARK: Decimals

    /// A finite `Double` as a positional decimal: the shortest digits that read back as it.
    private struct ShortestDecimal {
        var isNegative = false
        /// The magnitude of the part before the point; `nil` when it has more than 18 digits.
        var integer: Int64?
        /// The digits after the point, as digit values, without trailing zeros.
        var fraction: [UInt8] = []

        /// Swift's description of a `Double` is the shortest decimal that reads back as the
        /// same value, in plain (`762515400.5`) or exponent (`1e-05`) notation; this moves the
        /// point to where it belongs.
        init(_ value: Double) {
            var digits: [UInt8] = []
            var integerCount = 0
            var seenPoint = false
            var exponent = 0
            let text = value.description.utf8
            var index = text.startIndex
            while index < text.endIndex {
                let byte = text[index]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    digits.append(byte - UInt8(ascii: "0"))
                    if !seenPoint { integerCount += 1 }
                case UInt8(ascii: "-"):
                    isNegative = true
                case UInt8(ascii: "."):
                    seenPoint = true
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    exponent = Int(String(decoding: text[text.index(after: index)...], as: UTF8.self)) ?? 0
                    index = text.endIndex
                    continue
                default:
                    break
                }
                index = text.index(after: index)
            }
            let point = integerCount + exponent
            if point > 18 { return }
            var whole: Int64 = 0
            for position in 0..<max(point, 0) {
                whole = whole * 10 + Int64(position < digits.count ? digits[position] : 0)
            }
            integer = whole
            if point < digits.count {
                fraction = Array(repeating: 0, count: max(-point, 0)) + digits[max(point, 0)...]
                while fraction.last == 0 { fraction.removeLast() }
            }
        }
    }

    /// `1 - 0.f` for fraction digits `f` that end in a non-zero digit, with as many digits.
    private static func complement(_ fraction: [UInt8]) -> [UInt8] {
        guard let last = fraction.last else { return [] }
        return fraction.dropLast().map { 9 - $0 } + [10 - last]
    }

    private static func digitString(_ digits: [UInt8]) -> String {
        String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }

    // MARK: Calendar

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    ///
    /// The algorithm is Howard Hinnant's `days_from_civil`.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar `days` after 1970-01-01 (Hinnant's
    /// `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}

extension Date {
    /// Whether a document can store this date and read it back unchanged: a finite date in the
    /// years 0000–9999 (the range of ``FileStorage``'s ISO 8601 dates).
    ///
    /// Stores that range-check the dates they decode use this very range, so that whatever a
    /// store writes, it reads back.
    package var isStorableInDocuments: Bool { DocumentDate.isWritable(self) }
}
