import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

/// Documents longer than `FileStorage` reads into memory at once (16 MiB) are mapped, and read
/// as any other: decoded whole when they are within the read limit, or front to back by a value
/// that reads long documents as a stream, past the limit.
@Suite("Long documents")
struct LongDocumentTests {
    /// How many items a long document holds: enough for a little over 16 MiB of JSON.
    static let itemCount = 8_600_000

    /// A value whose long documents are read as a stream: the stream counts the items and keeps
    /// none of them.
    struct Tally: Codable, Sendable, Equatable {
        var count: Int
        var items: [Int] = []
    }

    static func longDocument(identity: String) -> Data {
        var text = #"{"formatVersion":2,"store":"\#(identity)","valueVersion":1,"value":{"count":0,"items":["#
        text.reserveCapacity(itemCount * 2 + 200)
        text += String(repeating: "0,", count: itemCount - 1) + "0]}}"
        return Data(text.utf8)
    }

    @Test func aDocumentOverTheMappingSizeIsReadWhole() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "tally.json")
            try Self.longDocument(identity: "Tally").write(to: file)
            #expect(Int64(try Data(contentsOf: file).count) > FileStorage.mapsOver)
            let loaded = try FileStorage(folder: folder).load(StoreDocument(key: "tally", default: Tally(count: -1)))
            #expect(loaded.recovery == nil)
            #expect(loaded.isStored)
            #expect(loaded.value.items.count == Self.itemCount)
        }
    }

    @Test func aDocumentPastTheReadLimitIsStreamedFromItsMapping() throws {
        let migrations = DocumentMigrations<Tally>(version: 1).readingLongDocuments(over: 64 * 1_024) { stream, _ in
            var tally = Tally(count: 0)
            try stream.forEachMember { key, stream in
                guard key == "items" else { return try stream.skipValue() }
                try stream.forEachElement { element in
                    try element.skipValue()
                    tally.count += 1
                }
            }
            return tally
        }
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "tally.json")
            try Self.longDocument(identity: "Tally").write(to: file)
            let document = StoreDocument(key: "tally", default: Tally(count: -1), migrations: migrations)
            let loaded = try DocumentReadLimit.$bytes.withValue(1_024 * 1_024) {
                try FileStorage(folder: folder).load(document)
            }
            #expect(loaded.recovery == nil, "not kept aside for its size")
            #expect(loaded.value == Tally(count: Self.itemCount))
            // The smaller value read from it was written back at once.
            #expect(try DocumentFileText.envelope(at: file).count < 1_024)
        }
    }
}
