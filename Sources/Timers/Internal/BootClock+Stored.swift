import Foundation

extension BootClock {
    /// The longest boot id a document may hold: 64 characters.
    package static let storedBootIDLimit = 64
    /// The latest time since boot a document may hold: 10¹² seconds (over 30,000 years).
    package static let storedSinceBootLimit = 1e12

    /// Range-checks an end on the boot time line read from a document: the time since boot
    /// finite and within `0 ... 10¹²` seconds, the boot id at most 64 characters. Every
    /// document that records a boot time line (a countdown's record, an item's grant) decodes
    /// through this one check.
    ///
    /// - Parameters:
    ///   - bootID: The boot id read, if any, and its key.
    ///   - endSinceBootSeconds: The time since boot read, if any, and its key.
    ///   - container: The container they were read from, for the error.
    /// - Throws: `DecodingError.dataCorrupted` naming the field that is out of range.
    package static func checkStored<Key: CodingKey>(
        bootID: String?, forKey bootIDKey: Key, endSinceBootSeconds: Double?, forKey sinceBootKey: Key,
        in container: KeyedDecodingContainer<Key>
    ) throws {
        if let seconds = endSinceBootSeconds, !(seconds.isFinite && (0...storedSinceBootLimit).contains(seconds)) {
            throw DecodingError.dataCorruptedError(
                forKey: sinceBootKey, in: container, debugDescription: "\(seconds) s since boot is not a time")
        }
        if (bootID?.count ?? 0) > storedBootIDLimit {
            throw DecodingError.dataCorruptedError(
                forKey: bootIDKey, in: container,
                debugDescription: "the boot id is longer than \(storedBootIDLimit) characters")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`, as documents store it.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
