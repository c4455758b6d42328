import Foundation

/// The layout of a document file since format 3: a header and two slots, each slot holding one
/// version of the document's JSON envelope with its sequence number, length and checksum.
///
/// ```
/// [0, 4096)                 header: {"formatVersion":3,"layout":"two slots","slotSize":"0000004096","slots":[ … spaces, "\n"
/// [4096, 4096 + S)          slot 0: {"sequence":"…20 digits…","length":"…10 digits…","crc32c":"…8 hex…","document":<envelope>} … spaces, ",\n"
/// [4096 + S, 4096 + 2S)     slot 1: the same, ending "]}\n"; an empty slot is null … spaces and its ending
/// ```
///
/// `S`, the slot size, is 4 KiB times a power of two, written in the header; the file is
/// `4096 + 2S` bytes. The whole file is one JSON object, so a version of the library that reads
/// only plain documents sees a document of a newer format and leaves it in place.
///
/// A write puts the next sequence number into the **older** slot — never the current one — with
/// one positioned write of the whole slot, then flushes the file's data; a crash in the middle
/// leaves that slot failing its checksum, and readers take the other. The checksum (CRC32C) covers
/// the sequence's and the length's digits and the envelope. A reader takes the valid slot with the
/// highest sequence; a file whose two slots are both invalid is damaged.
///
/// A document that outgrows its slot, and a plain document at its first write, is written whole
/// as a new file (temporary file, flush, rename, flush of the folder) with slots large enough.
enum SlotFile {
    /// The header's size, and the alignment of the slots.
    static let headerSize = 4_096
    /// The smallest slot.
    static let smallestSlot = 4_096
    /// The largest slot: 1 GiB (a document is at most 256 MiB).
    static let largestSlot = 1 << 30
    /// The file format version the header states.
    static let formatVersion = 3

    /// What every two-slot file starts with.
    static let signature = Array(#"{"formatVersion":3,"layout":"two slots","slotSize":""#.utf8)
    private static let headerEnd = Array(#"","slots":["#.utf8)

    private static let sequenceStart = Array(#"{"sequence":""#.utf8)
    private static let lengthStart = Array(#"","length":""#.utf8)
    private static let checksumStart = Array(#"","crc32c":""#.utf8)
    private static let documentStart = Array(#"","document":"#.utf8)
    private static let sequenceDigits = 20
    private static let lengthDigits = 10
    private static let checksumDigits = 8
    /// The bytes before a slot's envelope.
    static let slotPrefixSize =
        sequenceStart.count + sequenceDigits + lengthStart.count + lengthDigits + checksumStart.count + checksumDigits
        + documentStart.count
    private static let endings: [[UInt8]] = [Array(",\n".utf8), Array("]}\n".utf8)]
    private static let empty = Array("null".utf8)
    private static let space = UInt8(ascii: " ")

    /// The most envelope bytes a slot of `slotSize` bytes holds.
    static func capacity(ofSlot slotSize: Int) -> Int {
        slotSize - slotPrefixSize - 1 - 3
    }

    /// The slot size a file holding an envelope of `count` bytes is written with, when its slots
    /// are `current` bytes now (`nil`: a new file): `current` while the envelope fits it and would
    /// not fit a slot a quarter of its size; otherwise the smallest slot it fits, so that a
    /// document that became small is written into small slots again (and one that shrinks and
    /// grows a little does not change its slots at each write). `nil` past the largest slot.
    static func slotSize(for count: Int, current: Int?) -> Int? {
        guard let fitting = slotSize(fitting: count) else { return nil }
        if let current, current >= fitting, current / 4 < fitting { return current }
        return fitting
    }

    /// The slot size for an envelope of `count` bytes: `current` (at least the smallest slot),
    /// doubled until it fits; `nil` past the largest slot.
    static func slotSize(fitting count: Int, from current: Int = smallestSlot) -> Int? {
        var size = max(current, smallestSlot)
        while capacity(ofSlot: size) < count {
            guard size < largestSlot else { return nil }
            size *= 2
        }
        return size
    }

    /// Where the header holds the mark of a document set aside: a tab in place of the space
    /// before the header's last byte. JSON reads a tab as it reads a space, and the slots'
    /// readers never look at it, so the mark changes what no reader of any version reads.
    static let movedMarkOffset = headerSize - 2

    /// Whether the two-slot file `bytes` carries the mark of a document set aside: moved to
    /// another name by the writer that marked it (or about to be, when that writer was killed).
    /// A descriptor kept open on the file is then not written through; the file's path is.
    static func isMarkedMoved(_ bytes: Data) -> Bool {
        bytes.count > movedMarkOffset && bytes[bytes.startIndex + movedMarkOffset] == UInt8(ascii: "\t")
    }

    /// Whether `bytes` start as a two-slot file does (whether or not the rest is whole).
    static func isSlotFile(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

    // MARK: Reading

    /// One valid slot: its index, sequence number and envelope (a copy, never a view of a mapped
    /// file, which another process may overwrite).
    struct Slot: Equatable {
        let index: Int
        let sequence: UInt64
        let envelope: Data
    }

    /// What a two-slot file's bytes hold.
    struct Contents: Equatable {
        /// The slot size the header states.
        let slotSize: Int
        /// The valid slots, at most two.
        let slots: [Slot]

        /// The valid slot with the highest sequence: the document's current version; `nil` when
        /// neither slot is valid.
        var current: Slot? { slots.max { $0.sequence < $1.sequence } }

        /// The slot the next write goes to: the one that is not current.
        var older: Int { current.map { 1 - $0.index } ?? 0 }
    }

    /// Why bytes that start as a two-slot file are not one.
    struct Damage: Error, Equatable {
        let reason: String
    }

    /// Reads the header and both slots of `bytes`, which start with ``signature``.
    ///
    /// - Throws: ``Damage`` when the header is not whole (a two-slot file's header is written
    ///   once, with the file, so this is never a crash's doing).
    static func read(_ bytes: Data) throws(Damage) -> Contents {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Contents, Damage> in
            let all = raw.bindMemory(to: UInt8.self)
            guard all.count >= headerSize, all.starts(with: signature) else {
                return .failure(Damage(reason: "its header is cut short"))
            }
            var position = signature.count
            guard let size = number(all, at: &position, digits: 10).flatMap({ Int(exactly: $0) }),
                size >= smallestSlot, size <= largestSlot, size & (size - 1) == 0,
                matches(all, headerEnd, at: &position)
            else { return .failure(Damage(reason: "its header does not state a slot size the app writes")) }
            let slotSize = size
            // The file is written whole, header and both slots, so its length follows from the
            // header: any other length is not a crash's doing (a file cut short, or a header
            // changed), and its slots can't be found.
            guard all.count == headerSize + 2 * slotSize else {
                return .failure(
                    Damage(reason: "its length (\(all.count) bytes) is not what its header's slot size (\(slotSize)) makes it"))
            }
            var slots: [Slot] = []
            for index in 0..<2 {
                let start = headerSize + index * slotSize
                if let slot = slot(UnsafeBufferPointer(rebasing: all[start..<(start + slotSize)]), index: index) {
                    slots.append(slot)
                }
            }
            return .success(Contents(slotSize: slotSize, slots: slots))
        }.get()
    }

    /// The slots of `bytes`, which start with ``signature``, and the current one.
    ///
    /// - Throws: ``Damage`` when the header is not whole, or neither slot is.
    static func current(of bytes: Data) throws(Damage) -> (contents: Contents, slot: Slot) {
        let contents = try read(bytes)
        guard let current = contents.current else {
            throw Damage(reason: "neither of its two copies is whole (both fail their checksum)")
        }
        return (contents, current)
    }

    /// The slot in `region`, or `nil` when it is empty, torn or not whole.
    private static func slot(_ region: UnsafeBufferPointer<UInt8>, index: Int) -> Slot? {
        var position = 0
        guard matches(region, sequenceStart, at: &position),
            let sequence = number(region, at: &position, digits: sequenceDigits), sequence >= 1,
            matches(region, lengthStart, at: &position),
            let length = number(region, at: &position, digits: lengthDigits),
            matches(region, checksumStart, at: &position),
            let checksum = number(region, at: &position, digits: checksumDigits, radix: 16),
            matches(region, documentStart, at: &position),
            length <= UInt64(capacity(ofSlot: region.count))
        else { return nil }
        let end = position + Int(length)
        guard region[end] == UInt8(ascii: "}") else { return nil }
        var crc = CRC32C()
        crc.update(UnsafeBufferPointer(rebasing: region[sequenceStart.count..<(sequenceStart.count + sequenceDigits)]))
        let lengthAt = sequenceStart.count + sequenceDigits + lengthStart.count
        crc.update(UnsafeBufferPointer(rebasing: region[lengthAt..<(lengthAt + lengthDigits)]))
        let envelope = Data(UnsafeBufferPointer(rebasing: region[position..<end]))
        envelope.withUnsafeBytes { crc.update($0.bindMemory(to: UInt8.self)) }
        guard crc.value == UInt32(checksum) else { return nil }
        return Slot(index: index, sequence: sequence, envelope: envelope)
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ text: [UInt8], at position: inout Int) -> Bool {
        guard bytes.count - position >= text.count else { return false }
        for (offset, byte) in text.enumerated() where bytes[position + offset] != byte { return false }
        position += text.count
        return true
    }

    private static func number(
        _ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int, digits: Int, radix: UInt64 = 10
    ) -> UInt64? {
        guard bytes.count - position >= digits,
            let value = FixedDigits.value(bytes[position..<(position + digits)], radix: radix)
        else { return nil }
        position += digits
        return value
    }

    /// The highest sequence number in the first bytes of the two slots, without checking them:
    /// what tells one version from the next for a watcher. `nil` when `read` finds no file
    /// header.
    ///
    /// `read(offset, count)` returns the bytes of the file at `offset`.
    static func peekSequence(_ read: (Int, Int) -> [UInt8]) -> UInt64? {
        let header = read(0, signature.count + 10)
        guard header.starts(with: signature), let slotSize = decimal(header.dropFirst(signature.count), digits: 10),
            slotSize >= smallestSlot, slotSize <= largestSlot
        else { return nil }
        var highest: UInt64 = 0
        for index in 0..<2 {
            let prefix = read(headerSize + index * Int(slotSize), sequenceStart.count + sequenceDigits)
            guard prefix.starts(with: sequenceStart),
                let sequence = decimal(prefix.dropFirst(sequenceStart.count), digits: sequenceDigits)
            else { continue }
            highest = max(highest, sequence)
        }
        return highest
    }

    /// `bytes` as a decimal number of exactly `digits` digits.
    private static func decimal(_ bytes: ArraySlice<UInt8>, digits: Int) -> UInt64? {
        bytes.count == digits ? FixedDigits.value(bytes, radix: 10) : nil
    }

    // MARK: Writing

    /// The header of a file with slots of `slotSize` bytes.
    static func header(slotSize: Int) -> [UInt8] {
        var bytes = signature
        bytes += digits(UInt64(slotSize), count: 10)
        bytes += headerEnd
        bytes += [UInt8](repeating: space, count: headerSize - bytes.count - 1)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Slot `index` of `slotSize` bytes holding `envelope` as version `sequence`; `nil` when the
    /// envelope does not fit.
    static func slot(_ index: Int, slotSize: Int, sequence: UInt64, envelope: Data) -> [UInt8]? {
        guard envelope.count <= capacity(ofSlot: slotSize) else { return nil }
        let sequenceText = digits(sequence, count: sequenceDigits)
        let lengthText = digits(UInt64(envelope.count), count: lengthDigits)
        var crc = CRC32C()
        sequenceText.withUnsafeBufferPointer { crc.update($0) }
        lengthText.withUnsafeBufferPointer { crc.update($0) }
        envelope.withUnsafeBytes { crc.update($0.bindMemory(to: UInt8.self)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(slotSize)
        bytes += sequenceStart
        bytes += sequenceText
        bytes += lengthStart
        bytes += lengthText
        bytes += checksumStart
        bytes += hexDigits(crc.value)
        bytes += documentStart
        bytes += envelope
        bytes.append(UInt8(ascii: "}"))
        return ending(bytes, index: index, slotSize: slotSize)
    }

    /// Slot `index` of `slotSize` bytes, empty.
    static func emptySlot(_ index: Int, slotSize: Int) -> [UInt8] {
        ending(empty, index: index, slotSize: slotSize)
    }

    /// A whole file holding `envelope` as version `sequence` in slot 0, slot 1 empty; `nil` when
    /// the envelope is longer than the largest slot holds.
    static func file(envelope: Data, sequence: UInt64, slotSize: Int) -> Data? {
        guard let first = slot(0, slotSize: slotSize, sequence: sequence, envelope: envelope) else { return nil }
        var data = Data(capacity: headerSize + 2 * slotSize)
        data.append(contentsOf: header(slotSize: slotSize))
        data.append(contentsOf: first)
        data.append(contentsOf: emptySlot(1, slotSize: slotSize))
        return data
    }

    private static func ending(_ text: [UInt8], index: Int, slotSize: Int) -> [UInt8] {
        let end = endings[index]
        return text + [UInt8](repeating: space, count: slotSize - text.count - end.count) + end
    }

    private static func digits(_ value: UInt64, count: Int) -> [UInt8] {
        let text = Array(String(value).utf8)
        return [UInt8](repeating: 0x30, count: max(0, count - text.count)) + text
    }

    private static func hexDigits(_ value: UInt32) -> [UInt8] {
        let text = Array(String(value, radix: 16).utf8)
        return [UInt8](repeating: 0x30, count: 8 - text.count) + text
    }
}

/// CRC-32C (Castagnoli), as iSCSI, ext4 and LevelDB use: reflected, polynomial `0x82F63B78`,
/// initial and final XOR `0xFFFFFFFF`. `CRC32C` of "123456789" is `0xE3069283`.
struct CRC32C {
    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes so far.
    var value: UInt32 { ~state }

    /// Adds `bytes`.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = state
        let table = Self.table
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        state = crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }
}

/// Numbers written with a fixed count of digits, as file names and two-slot files hold them.
enum FixedDigits {
    /// `digits` as a number in `radix` (10, or 16 with lowercase letters); `nil` when a byte is
    /// not such a digit or the number does not fit 64 bits.
    static func value(_ digits: some Collection<UInt8>, radix: UInt64) -> UInt64? {
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
            default: return nil
            }
            let (times, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = times.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
