import Foundation
import SingletonStoresTestSupport
import StoreObservation
import Testing

@testable import SingletonStores

/// A document a newer version of the app wrote stays where it is, unchanged: the older version
/// shows the default, says to update the app, and refuses every write of it, so that the newer
/// version finds its data again after an update.
@Suite("Documents of a newer version")
struct NewerDocumentTests {
    /// A document of a newer format than this build reads.
    static let newerFormat = #"{"formatVersion": 3, "store": "PersistedCounter", "value": {"count": 6, "label": "six"}}"#
    /// A document whose value is of version 3, above the migrations' 2.
    static let newerValueVersion =
        #"{"formatVersion": 2, "store": "PersistedCounter", "value": {"count": 6, "label": "six"}, "valueVersion": 3}"#
    /// A document whose value is of version 2, read by a store whose value has had one version.
    static let versionedValue = #"{"formatVersion": 2, "value": {"count": 6, "label": "six"}, "valueVersion": 2}"#

    /// The three newer documents, each with the document a store reads it as.
    static let cases: [(text: String, document: StoreDocument<PersistedCounter>)] = [
        (newerFormat, StoreDocument(key: "counter", default: PersistedCounter())),
        (newerValueVersion, StoreDocument(key: "counter", default: PersistedCounter(), migrations: PersistedCounter.migrations)),
        (versionedValue, StoreDocument(key: "counter", default: PersistedCounter(), migrations: DocumentMigrations(version: 1))),
    ]

    /// Whether `error` is the report of a newer document at `file`.
    static func isNewer(_ error: StorageError?, at file: URL) -> Bool {
        switch error {
        case .newerFormatLeftInPlace(let reported, found: 3, supported: 2)?,
            .newerValueVersionLeftInPlace(let reported, found: 3, supported: 2)?,
            .newerValueVersionLeftInPlace(let reported, found: 2, supported: 1)?:
            reported == file
        default: false
        }
    }

    @Test(arguments: 0..<3)
    func aNewerDocumentStaysInPlaceAndEveryWriteIsRefused(index: Int) throws {
        let (text, document) = Self.cases[index]
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = folder.appending(path: "counter.json")
            try Data(text.utf8).write(to: file)
            let before = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()

            let loaded = try storage.load(document)
            #expect(loaded.value == PersistedCounter())
            #expect(!loaded.isStored)
            #expect(Self.isNewer(loaded.recovery, at: file), "\(String(describing: loaded.recovery))")
            #expect(loaded.recovery?.keptFile == nil)

            var ran = false
            #expect(
                performing: { try storage.save(PersistedCounter(count: 1), to: document) },
                throws: { Self.isNewer($0 as? StorageError, at: file) })
            #expect(
                performing: {
                    try storage.update(document) {
                        ran = true; $0.count += 1
                    }
                }, throws: { Self.isNewer($0 as? StorageError, at: file) })
            #expect(
                performing: {
                    try storage.updateIfAvailable(document) {
                        ran = true; $0.count += 1
                    }
                }, throws: { Self.isNewer($0 as? StorageError, at: file) })
            #expect(!ran)

            // Nothing was moved, renamed or written: the newer version finds its document as it left it.
            #expect(try String(contentsOf: file, encoding: .utf8) == text)
            let after = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
            #expect(after.filter { $0.hasPrefix("counter~") }.isEmpty, "\(after)")
            #expect(before.allSatisfy(after.contains))
        }
    }

    @Test func theErrorNamesTheFileAndSaysToUpdateTheApp() {
        let file = URL(filePath: "/data/purchases.json")
        for error in [
            StorageError.newerFormatLeftInPlace(file: file, found: 3, supported: 2),
            .newerValueVersionLeftInPlace(file: file, found: 3, supported: 2),
        ] {
            #expect(error.description.contains("/data/purchases.json"))
            #expect(error.description.contains("newer version of the app"))
            #expect(error.description.contains("Update the app"))
            #expect(error.description.contains("left in place, unchanged"))
            #expect(error.file == file)
            #expect(error.keptFile == nil)
        }
    }

    @Test func aStoreOnANewerDocumentShowsItsDefaultReportsItAndRefusesToWrite() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "counter.json")
            try Data(Self.newerFormat.utf8).write(to: file)
            let issues = Recorder<StoreIssue>()
            let store = ValueStore(
                key: "counter", default: PersistedCounter(), storage: FileStorage(folder: folder, reportNotice: { _ in }),
                center: NotificationCenter(), watching: .off, reportIssue: { issues.append($0) })
            #expect(store.value == PersistedCounter())
            #expect(Self.isNewer(store.loadProblem, at: file))
            #expect(
                issues.values.contains {
                    if case .storageRecovered(let error) = $0 { Self.isNewer(error, at: file) } else { false }
                })
            #expect(throws: StorageError.newerFormatLeftInPlace(file: file, found: 3, supported: 2)) {
                try store.update { $0.count += 1 }
            }
            #expect(store.value == PersistedCounter())
            #expect(try String(contentsOf: file, encoding: .utf8) == Self.newerFormat)
        }
    }

    @Test func aLongNewerDocumentReadAsAStreamStaysInPlaceToo() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "counter.json")
            let long =
                #"{"formatVersion": 2, "store": "PersistedCounter", "value": {"count": 6, "label": ""#
                + String(repeating: "x", count: 4_096) + #""}, "valueVersion": 3}"#
            try Data(long.utf8).write(to: file)
            let document = StoreDocument(
                key: "counter", default: PersistedCounter(),
                migrations: PersistedCounter.migrations.readingLongDocuments(over: 1_024) { stream, decoder in
                    try decoder.decode(PersistedCounter.self, from: Data(stream.valueBytes(limit: 1 << 20)))
                })
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let loaded = try storage.load(document)
            #expect(Self.isNewer(loaded.recovery, at: file), "\(String(describing: loaded.recovery))")
            #expect(throws: StorageError.self) { try storage.update(document) { $0.count += 1 } }
            #expect(try String(contentsOf: file, encoding: .utf8) == long)
        }
    }

    @Test func theInMemoryStoragePlaysANewerDocumentUntilItIsCancelled() throws {
        let storage = InMemoryStorage(["counter": PersistedCounter(count: 6)])
        let document = StoreDocument(key: "counter", default: PersistedCounter())
        let newer = StorageError.newerFormatLeftInPlace(file: InMemoryStorage.location(forKey: "counter"), found: 3, supported: 2)
        storage.simulateRecovery(newer, forKey: "counter")
        for _ in 0..<2 {
            let loaded = try storage.load(document)
            #expect(loaded.value == PersistedCounter())
            #expect(loaded.recovery == newer)
            #expect(throws: newer) { try storage.update(document) { $0.count += 1 } }
            #expect(throws: newer) { try storage.save(PersistedCounter(count: 1), to: document) }
        }
        #expect(storage.value(PersistedCounter.self, forKey: "counter") == PersistedCounter(count: 6))
        storage.simulateRecovery(nil, forKey: "counter")
        #expect(try storage.load(document).value == PersistedCounter(count: 6))
    }
}
