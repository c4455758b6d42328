import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

/// A value with a date, that remembers the format version it was decoded from.
private struct Appointment: Codable, Sendable, Equatable {
    var title: String
    var start: Date
    var end: Date?
    /// The version `init(from:)` saw; not stored.
    var decodedFromVersion: Int?

    init(title: String, start: Date, end: Date? = nil) {
        self.title = title
        self.start = start
        self.end = end
    }

    private enum CodingKeys: String, CodingKey { case title, start, end }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        start = try container.decode(Date.self, forKey: .start)
        end = try container.decodeIfPresent(Date.self, forKey: .end)
        decodedFromVersion = decoder.documentFormatVersion
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.start == rhs.start && lhs.end == rhs.end
    }
}

/// Version 1 documents load and are rewritten as version 2; dates are ISO 8601 text.
@Suite("Document format versions")
struct DocumentFormatTests {
    private static let start = Date(timeIntervalSinceReferenceDate: 768_560_000.4316511)

    private static func text(of key: String, in storage: FileStorage) throws -> String {
        try DocumentFileText.text(at: storage.fileURL(forKey: key))
    }

    @Test func theCurrentFormatIsVersion2() {
        #expect(FileStorage.formatVersion == 2)
    }

    @Test func aDocumentIsWrittenWithISO8601Dates() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(
                Appointment(title: "Dentist", start: Self.start),
                to: StoreDocument(key: "appointment", default: Appointment(title: "Dentist", start: Self.start)))
            #expect(
                try Self.text(of: "appointment", in: storage) == """
                    {
                      "formatVersion" : 2,
                      "store" : "Appointment",
                      "value" : {
                        "start" : "2025-05-10T08:53:20.4316511Z",
                        "title" : "Dentist"
                      }
                    }
                    """)
            let loaded = try storage.load(
                StoreDocument(key: "appointment", default: Appointment(title: "", start: .now)))
            #expect(loaded.value == Appointment(title: "Dentist", start: Self.start))
            #expect(loaded.value.start.timeIntervalSinceReferenceDate == 768_560_000.4316511, "to the last bit")
            #expect(loaded.value.decodedFromVersion == 2)
        }
    }

    @Test func aVersion1DocumentLoadsAndItsNextWriteIsVersion2() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let version1 = #"{"formatVersion": 1, "value": {"title": "Dentist", "start": 768560000.4316511, "end": 768563600}}"#
            try Data(version1.utf8).write(to: storage.fileURL(forKey: "appointment"))
            let expected = Appointment(
                title: "Dentist", start: Self.start, end: Date(timeIntervalSinceReferenceDate: 768_563_600))

            let loaded = try storage.load(
                StoreDocument(key: "appointment", default: Appointment(title: "", start: .now)))
            #expect(loaded == StorageLoad(value: expected, isStored: true))
            #expect(loaded.value.decodedFromVersion == 1)

            // An update that changes nothing leaves the document as it was.
            let unchanged = try storage.update(StoreDocument<Appointment>(key: "appointment", default: expected)) { _ in }
            #expect(!unchanged.didWrite)
            #expect(try Self.text(of: "appointment", in: storage) == version1)

            try storage.update(StoreDocument<Appointment>(key: "appointment", default: expected)) { $0.title = "Dentist (moved)" }
            let text = try Self.text(of: "appointment", in: storage)
            #expect(text.contains(#""formatVersion" : 2,"#))
            #expect(text.contains(#""start" : "2025-05-10T08:53:20.4316511Z""#))
            #expect(text.contains(#""end" : "2025-05-10T09:53:20Z""#))
            // This process gets the value it committed back without decoding it (see
            // `WrittenDocuments`); once that is forgotten — as in another process — the
            // document is decoded as version 2.
            let document = StoreDocument<Appointment>(key: "appointment", default: expected)
            #expect(try storage.load(document).value.decodedFromVersion == 1)
            WrittenDocuments.forget(try storage.fileURL(forKey: "appointment"))
            let reloaded = try storage.load(document)
            #expect(reloaded.value == Appointment(title: "Dentist (moved)", start: expected.start, end: expected.end))
            #expect(reloaded.value.decodedFromVersion == 2)
        }
    }

    @Test func aDecoderOfYourOwnHasNoDocumentVersion() throws {
        let data = try JSONEncoder().encode(Appointment(title: "x", start: Self.start))
        #expect(try JSONDecoder().decode(Appointment.self, from: data).decodedFromVersion == nil)
    }

    @Test(arguments: [1e300, -1e300, 252_423_993_600])
    func aVersion1DocumentWithADateThatCouldNotBeWrittenBackIsKeptAside(seconds: Double) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let version1 = #"{"formatVersion": 1, "value": {"title": "x", "start": \#(seconds)}}"#
            try Data(version1.utf8).write(to: storage.fileURL(forKey: "appointment"))
            let loaded = try storage.load(
                StoreDocument(key: "appointment", default: Appointment(title: "default", start: Self.start)))
            guard case .corrupted(_, _, let reason)? = loaded.recovery else {
                Issue.record("expected a corrupted-document report, got \(String(describing: loaded.recovery))")
                return
            }
            #expect(reason.contains("0000 and 9999"))
        }
    }

    @Test(arguments: [
        (#""start": 768560000"#, "wrong type"),
        (#""start": "yesterday""#, "not an ISO 8601 date"),
        (#""start": "2025-02-29T00:00:00Z""#, "not an ISO 8601 date"),
    ])
    func aVersion2DocumentWithABadDateIsKeptAside(start: String, reason: String) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try Data(#"{"formatVersion": 2, "value": {"title": "x", \#(start)}}"#.utf8).write(
                to: storage.fileURL(forKey: "appointment"))
            let loaded = try storage.load(
                StoreDocument(key: "appointment", default: Appointment(title: "default", start: Self.start)))
            #expect(loaded.value.title == "default" && !loaded.isStored)
            guard case .corrupted(_, _, let found)? = loaded.recovery else {
                Issue.record("expected a corrupted-document report, got \(String(describing: loaded.recovery))")
                return
            }
            #expect(found.contains(reason))
        }
    }

    @Test func aVersion3DocumentStaysInPlace() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let version3 = Data(#"{"formatVersion": 3, "value": {"title": "x", "start": "2025-05-10T08:53:20Z"}}"#.utf8)
            try version3.write(to: storage.fileURL(forKey: "appointment"))
            let loaded = try storage.load(
                StoreDocument(key: "appointment", default: Appointment(title: "default", start: Self.start)))
            guard case .newerFormatLeftInPlace(_, found: 3, supported: 2)? = loaded.recovery else {
                Issue.record("expected a newer-format report, got \(String(describing: loaded.recovery))")
                return
            }
            #expect(try Data(contentsOf: storage.fileURL(forKey: "appointment")) == version3)
        }
    }

    @Test func aDateBeyondTheYear9999IsNotWritten() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let far = Appointment(title: "x", start: Date(timeIntervalSince1970: 1e12))
            let file = try storage.fileURL(forKey: "appointment")
            let error = #expect(throws: StorageError.self) {
                try storage.save(far, to: StoreDocument(key: "appointment", default: far))
            }
            guard case .encodingFailed(let key, let reason)? = error else {
                Issue.record("expected encodingFailed, got \(String(describing: error))")
                return
            }
            #expect(key == "appointment" && reason.contains("after the year 9999") && reason.contains("0000–9999"))
            #expect(error?.recoverySuggestion?.contains("Check the device's date and time") == true)
            #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
        }
    }
}
