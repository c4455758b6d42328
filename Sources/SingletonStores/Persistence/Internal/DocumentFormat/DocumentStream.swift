import Foundation

/// A JSON document read front to back, one value at a time, from a file a chunk at a time or
/// from bytes given whole: what a value whose documents can grow long reads them with (see
/// ``DocumentMigrations/readingLongDocuments(over:_:)``), so that memory never holds a tree of
/// the whole document, and what `reset` checks a file's envelope with, never holding the file.
///
/// ```swift
/// var total = 0
/// try stream.forEachMember { key, stream in
///     guard key == "entries" else { return try stream.skipValue() }
///     try stream.forEachElement { stream in
///         total += try decoder.decode(Entry.self, from: Data(stream.valueBytes(limit: 4_096))).amount
///     }
/// }
/// ```
///
/// Each call reads exactly one value (an object's members, an array's elements, or one value
/// whole); a body given a member or an element must read its value, or skip it. The scanner
/// finds where values begin and end; the bytes of a value asked for are checked by the decoder
/// they are given to, and those skipped only for their nesting.
package struct DocumentStream {
    /// A document that is not the JSON the reader expected.
    package struct Malformed: Error, CustomStringConvertible {
        /// What is wrong, and where.
        package let description: String

        /// A document that is not what was expected, as `description` says.
        package init(description: String) {
            self.description = description
        }
    }

    /// The file could not be read (an I/O error): not a fault of the document.
    struct ReadFailure: Error {
        let reason: String
    }

    /// Where the bytes come from: a file or bytes (a mapped file, say), a chunk at a time, or
    /// bytes given whole.
    private let handle: FileHandle?
    /// The bytes read a chunk at a time, and where the next chunk starts in them.
    private let source: Data?
    private var sourceOffset = 0
    /// The bytes read and not yet consumed, from ``position``.
    private var buffer: [UInt8]
    private var position = 0
    /// How many bytes of the document came before `buffer`, for messages.
    private var offset = 0
    private var atEnd: Bool
    /// The bytes of the value being captured, when one is, from `captureStart` in `buffer`.
    private var captured: [UInt8]?
    private var captureStart = 0
    private var captureLimit = 0

    /// The size of each read from the file: 64 KiB.
    static let chunkSize = 64 * 1_024

    /// A stream of the file open as `handle`, read from where it is.
    init(handle: FileHandle) {
        self.handle = handle
        source = nil
        buffer = []
        atEnd = false
    }

    /// A stream of `data`, taken a chunk at a time: a mapped file is never copied whole.
    init(data: Data) {
        handle = nil
        source = data
        buffer = []
        atEnd = false
    }

    /// A stream of `bytes`.
    package init(bytes: [UInt8]) {
        handle = nil
        source = nil
        buffer = bytes
        atEnd = true
    }

    // MARK: Reading values

    /// Reads an object, calling `body` with each key in the order stored; `body` must read or
    /// skip the member's value.
    package mutating func forEachMember(_ body: (String, inout DocumentStream) throws -> Void) throws {
        try forEachItem(opening: "{", closing: "}") { stream in
            try stream.skipWhitespace()
            guard try stream.peek() == UInt8(ascii: "\"") else { throw stream.malformed("a key was expected") }
            let key = try Self.string(from: stream.valueBytes(limit: 4_096))
            try stream.expect(UInt8(ascii: ":"))
            try body(key, &stream)
            return "the value of “\(key.prefix(40))”"
        }
    }

    /// Reads an array, calling `body` for each element; `body` must read or skip it.
    package mutating func forEachElement(_ body: (inout DocumentStream) throws -> Void) throws {
        try forEachItem(opening: "[", closing: "]") { stream in
            try body(&stream)
            return "an element"
        }
    }

    /// Reads a container from `opening` to `closing`, calling `item` for each of its items, which
    /// must read the item whole and say what it read, for the message when no separator follows.
    private mutating func forEachItem(
        opening: Unicode.Scalar, closing: Unicode.Scalar, _ item: (inout DocumentStream) throws -> String
    ) throws {
        try expect(UInt8(ascii: opening))
        try skipWhitespace()
        if try peek() == UInt8(ascii: closing) {
            position += 1
            return
        }
        while true {
            let read = try item(&self)
            try skipWhitespace()
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: closing): return
            default: throw malformed("“,” or “\(closing)” was expected after \(read)")
            }
        }
    }

    /// The bytes of the next value, whole: at most `limit` of them.
    package mutating func valueBytes(limit: Int) throws -> [UInt8] {
        try skipWhitespace()
        captured = []
        captureStart = position
        captureLimit = limit
        defer { captured = nil }
        try scanValue()
        var bytes = captured ?? []
        bytes.append(contentsOf: buffer[captureStart..<position])
        guard bytes.count <= limit else { throw malformed("a value is longer than \(limit) bytes") }
        return bytes
    }

    /// Reads past the next value.
    package mutating func skipValue() throws {
        try skipWhitespace()
        try scanValue()
    }

    /// Checks that nothing but white space follows the value read last.
    package mutating func expectEnd() throws {
        try skipWhitespace()
        guard try peek() == nil else { throw malformed("something follows the document") }
    }

    /// The text of the JSON string `bytes`, quotes included.
    package static func string(from bytes: [UInt8]) throws -> String {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            throw Malformed(description: "a string was expected")
        }
        if !bytes.contains(UInt8(ascii: "\\")) {
            return String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self)
        }
        return try JSONDecoder().decode(String.self, from: Data(bytes))
    }

    // MARK: Scanning

    private mutating func scanValue() throws {
        guard let first = try peek() else { throw malformed("the document ends where a value should be") }
        switch first {
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "{"), UInt8(ascii: "["): try scanNested()
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            throw malformed("a value was expected")
        default: try scanScalar()
        }
    }

    private mutating func scanString() throws {
        position += 1
        while true {
            guard let byte = try peek() else { throw malformed("a string is not closed") }
            position += 1
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard try peek() != nil else { throw malformed("a string is not closed") }
                position += 1
            }
        }
    }

    private mutating func scanNested() throws {
        var depth = 0
        while true {
            guard let byte = try peek() else { throw malformed("an object or an array is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                try scanString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= 512 else { throw malformed("values are nested more than 512 deep") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default: break
            }
            position += 1
            if depth == 0 { return }
        }
    }

    /// A number, `true`, `false` or `null`: up to the next delimiter.
    private mutating func scanScalar() throws {
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
                UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                return
            default: position += 1
            }
        }
    }

    private mutating func skipWhitespace() throws {
        while let byte = try peek() {
            guard
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
            else { return }
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        try skipWhitespace()
        guard try next() == byte else { throw malformed("“\(Character(Unicode.Scalar(byte)))” was expected") }
    }

    private mutating func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        return byte
    }

    /// The next byte, reading more of the file when the buffer is used up; `nil` at the end.
    private mutating func peek() throws -> UInt8? {
        if position < buffer.count { return buffer[position] }
        guard try refill() else { return nil }
        return buffer[position]
    }

    /// Replaces the used-up buffer with the next chunk of the file (keeping what a capture has
    /// read so far); `false` at the end of the file.
    private mutating func refill() throws -> Bool {
        guard !atEnd, handle != nil || source != nil else { return false }
        if captured != nil {
            captured?.append(contentsOf: buffer[captureStart..<position])
            captureStart = 0
            if (captured?.count ?? 0) > captureLimit { throw malformed("a value is longer than \(captureLimit) bytes") }
        }
        offset += position
        buffer.removeAll(keepingCapacity: true)
        position = 0
        let chunk: Data?
        if let source {
            let start = source.startIndex + sourceOffset
            let end = start + min(Self.chunkSize, source.endIndex - start)
            chunk = source[start..<end]
            sourceOffset += end - start
        } else if let handle {
            do { chunk = try handle.read(upToCount: Self.chunkSize) } catch {
                throw ReadFailure(reason: error.localizedDescription)
            }
        } else {
            chunk = nil
        }
        guard let chunk, !chunk.isEmpty else {
            atEnd = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    private func malformed(_ what: String) -> Malformed {
        Malformed(description: "\(what) (at byte \(offset + position))")
    }
}
