import Foundation

// Reading documents of format version 1, which this build never writes.
extension DocumentFormat {
    /// A date of version 1: a number, seconds since 2001-01-01. One outside the years 0000–9999
    /// makes the document damaged, as it could never be written back.
    static func readVersion1Date(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let date = Date(timeIntervalSinceReferenceDate: try container.decode(Double.self))
        guard DocumentDate.isWritable(date) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "the date \(date.timeIntervalSinceReferenceDate) s from 2001 is not between the years 0000 and 9999")
        }
        return date
    }
}
