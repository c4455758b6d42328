import Foundation

/// A document file's current envelope, read as the article "How a document is stored" states
/// the format — written apart from the library's reader, so that tests check the library against
/// the article, not against itself.
///
/// A plain document (format 1 or 2, one JSON envelope) is its own envelope. A two-slot file
/// (`{"formatVersion":3,"layout":"two slots",…`) holds it in the slot with the highest sequence
/// whose CRC32C matches.
package enum DocumentFileText {
    /// The envelope in the document file at `url`.
    package static func envelope(at url: URL) throws -> Data {
        envelope(of: try Data(contentsOf: url))
    }

    /// The envelope in the document file at `url`, as text.
    package static func text(at url: URL) throws -> String {
        String(decoding: try envelope(at: url), as: UTF8.self)
    }

    /// The envelope in `file`, the bytes of a document file; the bytes themselves when they are
    /// not a two-slot file, and empty when it has no valid slot.
    package static func envelope(of file: Data) -> Data {
        slots(of: file)?.max { $0.sequence < $1.sequence }?.envelope ?? (isSlotFile(file) ? Data() : file)
    }

    /// Whether `file` starts as a two-slot file.
    package static func isSlotFile(_ file: Data) -> Bool {
        file.starts(with: Array(signature.utf8))
    }

    /// The valid slots of a two-slot file (index, sequence, envelope); `nil` for another file.
    package static func slots(of file: Data) -> [(index: Int, sequence: UInt64, envelope: Data)]? {
        let bytes = [UInt8](file)
        guard isSlotFile(file), bytes.count >= 4_096 else { return nil }
        let sizeText = bytes[signature.utf8.count..<(signature.utf8.count + 10)]
        guard let slotSize = Int(String(decoding: sizeText, as: UTF8.self)) else { return nil }
        var found: [(index: Int, sequence: UInt64, envelope: Data)] = []
        for index in 0..<2 {
            let start = 4_096 + index * slotSize
            guard bytes.count >= start + slotSize else { continue }
            let slot = Array(bytes[start..<(start + slotSize)])
            // {"sequence":"<20>","length":"<10>","crc32c":"<8>","document":<envelope>}
            func text(_ range: Range<Int>) -> String { String(decoding: slot[range], as: UTF8.self) }
            guard text(0..<13) == #"{"sequence":""#, text(33..<45) == #"","length":""#,
                text(55..<67) == #"","crc32c":""#, text(75..<88) == #"","document":"#,
                let sequence = UInt64(text(13..<33)), let length = Int(text(45..<55)),
                let checksum = UInt32(text(67..<75), radix: 16), 88 + length < slotSize
            else { continue }
            let envelope = Array(slot[88..<(88 + length)])
            guard crc32c(Array(slot[13..<33]) + Array(slot[45..<55]) + envelope) == checksum else { continue }
            found.append((index, sequence, Data(envelope)))
        }
        return found
    }

    private static let signature = #"{"formatVersion":3,"layout":"two slots","slotSize":""#

    /// CRC-32C, bit by bit.
    private static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
