// The article "How a document is stored" states the document file's layout byte by byte: its
// example, tables and figures are read from the article and checked against the file a
// FileStorage writes and against the layout's constants, so that the article stays true when
// the format changes.
import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

@Suite("The article “How a document is stored”")
struct HowADocumentIsStoredArticleTests {
    /// The article's example store: `struct Counter: Codable { var count = 0 }`.
    struct Counter: Codable, Sendable, Equatable { var count = 0 }

    static let articleFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/SingletonStores/SingletonStores.docc/HowADocumentIsStored.md")

    static func article() throws -> ArticleText {
        ArticleText(try String(contentsOf: articleFile, encoding: .utf8))
    }

    /// The file of the example, as `FileStorage` writes it: `count` saved as 1, then as 2.
    static func exampleFile() throws -> Data {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let document = StoreDocument(key: "counter", default: Counter(), identity: "Counter")
            try storage.save(Counter(count: 1), to: document)
            try storage.save(Counter(count: 2), to: document)
            return try Data(contentsOf: storage.fileURL(forKey: "counter"))
        }
    }

    @Test func theExampleIsTheFileAFileStorageWrites() throws {
        let example = try #require(try Self.article().example, "the article shows the file in a text block")
        let file = try Self.exampleFile()
        let same = example == [UInt8](file)
        #expect(example.count == file.count, "the example is \(example.count) bytes, the file \(file.count)")
        #expect(same, "the example differs from the file from byte \(Self.firstDifference(example, [UInt8](file)))")
    }

    @Test func theFileTableMatchesTheHeaderTheLibraryWrites() throws {
        let article = try Self.article()
        let header = SlotFile.header(slotSize: SlotFile.smallestSlot)
        #expect(article.number(after: "The header is the first") == SlotFile.headerSize)
        #expect(header.count == SlotFile.headerSize)
        #expect(article.number(after: "a line feed as byte") == SlotFile.headerSize - 1)
        #expect(header.last == UInt8(ascii: "\n"))
        // The header's text, as the table spells it: its start, ten digits, its end.
        let row = try #require(article.tableRows.first { $0.cells.first == "0 to 4095" }, "the table has the header's row")
        let literals = row.literals
        #expect(literals.count == 2, "the header's row quotes its start and its end")
        let start = Array((literals.first ?? "").utf8)
        let end = Array((literals.last ?? "").utf8)
        #expect(start == SlotFile.signature)
        #expect(row.cells.last?.contains("10 decimal digits") == true)
        #expect(Array(header[start.count..<(start.count + 10)]) == Array("0000004096".utf8))
        #expect(Array(header[(start.count + 10)..<(start.count + 10 + end.count)]) == end)
        #expect(article.number(after: "4096 + 2S bytes:") == SlotFile.headerSize + 2 * SlotFile.smallestSlot)
    }

    @Test func theSlotTableMatchesTheSlotsTheLibraryWrites() throws {
        let article = try Self.article()
        let envelope = Data(#"{"formatVersion":2,"value":1}"#.utf8)
        let slot = try #require(SlotFile.slot(0, slotSize: 4_096, sequence: 42, envelope: envelope))
        var covered = 0
        var rows = 0
        for row in article.tableRows {
            guard let range = row.byteRange else { continue }
            rows += 1
            #expect(range.lowerBound == covered, "the row of bytes \(range) follows byte \(covered - 1)")
            covered = range.upperBound
            let bytes = Array(slot[range])
            let text = row.cells.last ?? ""
            if let literal = row.literals.first {
                #expect(bytes == Array(literal.utf8), "bytes \(range) of a slot are \(String(decoding: bytes, as: UTF8.self))")
            } else if let digits = ArticleText.number(before: " decimal digits", in: text) {
                #expect(range.count == digits && bytes.allSatisfy { (0x30...0x39).contains($0) }, "bytes \(range): \(text)")
            } else if let digits = ArticleText.number(before: " lower-case hexadecimal digits", in: text) {
                let hex = Array("0123456789abcdef".utf8)
                #expect(range.count == digits && bytes.allSatisfy(hex.contains), "bytes \(range): \(text)")
            } else {
                Issue.record("the row of bytes \(range) says neither the bytes nor their digits: \(text)")
            }
        }
        #expect(rows == 7, "the slot's table has a row for each of the 7 fields before the envelope")
        #expect(covered == SlotFile.slotPrefixSize)
        #expect(article.envelopeStart == SlotFile.slotPrefixSize)
        #expect(Array(slot[covered..<(covered + envelope.count)]) == Array(envelope))
        let statesThePrefix = article.flowing.contains("After the \(SlotFile.slotPrefixSize) bytes before the envelope")
        #expect(statesThePrefix, "the text says how many bytes come before the envelope")
    }

    @Test func theCapacityOfASlotIsTheLibrarys() throws {
        let article = try Self.article()
        let overhead = try #require(article.number(after: "holds an envelope of up to S −"))
        for slotSize in [4_096, 8_192, 1 << 20] {
            #expect(slotSize - overhead == SlotFile.capacity(ofSlot: slotSize))
        }
        #expect(article.number(after: "a 4 KiB slot holds up to") == SlotFile.capacity(ofSlot: 4_096))
        #expect(SlotFile.slotSize(fitting: SlotFile.capacity(ofSlot: 4_096) + 1) == 8_192, "the slot doubles")
    }

    /// The checksum of each slot of the example, computed as the article says — over the
    /// sequence's 20 digits, the length's 10 digits and the envelope, where the slot's table puts
    /// them — is the one written.
    @Test func theChecksumCoversWhatTheArticleSays() throws {
        let article = try Self.article()
        let example = try #require(article.example)
        let fields = article.tableRows.filter { $0.byteRange != nil }
        func field(_ words: String) throws -> Range<Int> {
            try #require(fields.first { $0.cells.last?.contains(words) == true }?.byteRange, "the table has \(words)")
        }
        let sequence = try field("The sequence number")
        let length = try field("The envelope's length")
        let checksum = try field("The checksum")
        #expect(sequence.count == 20 && length.count == 10 && checksum.count == 8)
        let envelopeStart = try #require(article.envelopeStart, "the table says where the envelope starts")
        var slots = 0
        for index in 0..<2 {
            let slot = Array(example[(4_096 + index * 4_096)..<(4_096 + (index + 1) * 4_096)])
            let count = try #require(Int(String(decoding: slot[length], as: UTF8.self)))
            var crc = CRC32C()
            (Array(slot[sequence]) + Array(slot[length]) + Array(slot[envelopeStart..<(envelopeStart + count)]))
                .withUnsafeBufferPointer { crc.update($0) }
            let written = try #require(UInt32(String(decoding: slot[checksum], as: UTF8.self), radix: 16))
            #expect(crc.value == written, "slot \(index)")
            slots += 1
        }
        #expect(slots == 2)
        #expect(article.text.contains("is `\(String(0xE306_9283 as UInt32, radix: 16))`"), "the check value")
    }

    /// The checks above read what they look for: a changed figure or a changed byte is caught.
    @Test func theReadingOfTheArticleFindsWhatItLooksFor() throws {
        let article = try Self.article()
        #expect(article.tableRows.count >= 12)
        let changed = ArticleText(article.text.replacingOccurrences(of: "holds up to 4004", with: "holds up to 4003"))
        #expect(changed.number(after: "a 4 KiB slot holds up to") == 4_003)
        let example = try #require(article.example)
        #expect(example.count == 12_288)
        let shorter = ArticleText(article.text.replacingOccurrences(of: "⟨3922 spaces⟩", with: "⟨3921 spaces⟩"))
        #expect(shorter.example?.count == example.count - 1)
        #expect(Self.firstDifference(example, Array(example.dropLast())) == example.count - 1)
        #expect(Self.firstDifference(Array("abc".utf8), Array("abd".utf8)) == 2)
        #expect(ArticleText("a\n```text\nab⟨2 spaces⟩c\n```\n").example == Array("ab  c\n".utf8))
    }

    static func firstDifference(_ one: [UInt8], _ other: [UInt8]) -> Int {
        zip(one, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(one.count, other.count)
    }
}

/// The text of an article, read for its figures, tables and example.
struct ArticleText {
    let text: String

    init(_ text: String) { self.text = text }

    /// The text with every run of white space (line breaks included) as one space.
    var flowing: String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The whole number right after `phrase` (and a space), or `nil` when the phrase is not there.
    func number(after phrase: String) -> Int? {
        guard let range = flowing.range(of: phrase + " ") else { return nil }
        return Int(flowing[range.upperBound...].prefix { $0.isNumber })
    }

    /// The whole number right before `phrase` in `text`.
    static func number(before phrase: String, in text: String) -> Int? {
        guard let range = text.range(of: phrase) else { return nil }
        return Int(String(text[..<range.lowerBound].reversed().prefix { $0.isNumber }.reversed()))
    }

    /// The bytes of the first `text` block, with each `⟨n spaces⟩` as that many spaces.
    var example: [UInt8]? {
        guard let open = text.range(of: "```text\n"), let close = text[open.upperBound...].range(of: "```") else {
            return nil
        }
        var block = Substring(text[open.upperBound..<close.lowerBound])
        var bytes: [UInt8] = []
        while let mark = block.range(of: "⟨") {
            bytes += Array(block[..<mark.lowerBound].utf8)
            guard let end = block[mark.upperBound...].range(of: " spaces⟩"),
                let count = Int(block[mark.upperBound..<end.lowerBound])
            else { return nil }
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: count)
            block = block[end.upperBound...]
        }
        return bytes + Array(block.utf8)
    }

    /// A row of a Markdown table: its cells, trimmed.
    struct Row {
        let cells: [String]

        /// The text in backticks in the row's last cell.
        var literals: [String] {
            (cells.last ?? "").split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }

        /// The bytes a row such as `| 13–32 | … |` is about.
        var byteRange: Range<Int>? {
            let bounds = (cells.first ?? "").split(separator: "–")
            guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first <= last else { return nil }
            return first..<(last + 1)
        }
    }

    /// The byte of a slot where the envelope starts, from the row `| from 88 | … |`.
    var envelopeStart: Int? {
        for row in tableRows {
            if let first = row.cells.first, first.hasPrefix("from ") { return Int(first.dropFirst("from ".count)) }
        }
        return nil
    }

    /// The body rows of every table.
    var tableRows: [Row] {
        text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") }
            .map { line in
                Row(cells: line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            }
            .filter { $0.cells.first != "Bytes" && $0.cells.first != "Bytes of the slot" }
    }
}
