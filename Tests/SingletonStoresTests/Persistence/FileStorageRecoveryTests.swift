#if canImport(Glibc)
import SingletonStoresTestSupport
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import SingletonStores

/// A kind of bad document, and the bytes that make one.
struct BadDocument: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var tag: String

    var testDescription: String { name }

    static let all: [BadDocument] = [
        BadDocument(
            name: "corrupted JSON", bytes: Array(#"{"formatVersion": 1, "value": {"count": 3,, }}"#.utf8), tag: "corrupt"),
        BadDocument(
            name: "truncated JSON", bytes: Array(#"{"formatVersion": 1, "value": {"count": 3, "lab"#.utf8), tag: "corrupt"),
        BadDocument(name: "empty file", bytes: [], tag: "corrupt"),
        BadDocument(
            name: "binary garbage", bytes: [0x00, 0xFF, 0xFE, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00, 0x7F],
            tag: "corrupt"),
        BadDocument(
            name: "wrong shape", bytes: Array(#"{"formatVersion": 1, "value": {"count": "three"}}"#.utf8), tag: "corrupt"),
        BadDocument(name: "no format version", bytes: Array(#"{"count": 3, "label": "x"}"#.utf8), tag: "corrupt"),
    ]
    // A document of a newer format is not bad: it stays in place (NewerDocumentTests).
}

@Suite("FileStorage recovery from bad documents")
struct FileStorageRecoveryTests {
    /// A storage whose clock is frozen, so kept-file names are predictable.
    /// A storage in `folder`, made the library's own (as a folder it creates is), so that a file
    /// in a document's place that is not in the library's format is kept aside there too.
    static func storage(in folder: URL) throws -> FileStorage {
        try LibraryFiles.markAsOwn(folder)
        return FileStorage(folder: folder, now: { Date(timeIntervalSince1970: 1_795_000_000) })  // 2026-11-18T11:06:40Z
    }

    /// Checks the recovery report and the kept file, and returns the kept file.
    static func expectKeptAside(
        _ recovery: StorageError?, bad: BadDocument, file: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URL {
        let problem = try #require(recovery, sourceLocation: sourceLocation)
        switch problem {
        case .corrupted(let reported, _, _):
            #expect(bad.tag == "corrupt", "\(bad.name) reported as corrupted", sourceLocation: sourceLocation)
            #expect(reported == file, sourceLocation: sourceLocation)
        default:
            Issue.record("unexpected report \(problem)", sourceLocation: sourceLocation)
        }
        let kept = try #require(problem.keptFile, sourceLocation: sourceLocation)
        #expect(kept.lastPathComponent == "counter~\(bad.tag)-20261118T110640Z.json", sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: kept) == Data(bad.bytes), "kept file holds the original bytes", sourceLocation: sourceLocation)
        #expect(problem.description.contains(file.path(percentEncoded: false)), sourceLocation: sourceLocation)
        #expect(problem.description.contains(kept.path(percentEncoded: false)), sourceLocation: sourceLocation)
        return kept
    }

    @Test(arguments: BadDocument.all)
    func loadKeepsBadDocumentAsideAndStartsFromDefaults(bad: BadDocument) throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)
            let file = try storage.fileURL(forKey: "counter")
            try Data(bad.bytes).write(to: file)

            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: -1)))
            #expect(loaded.value == PersistedCounter(count: -1))
            #expect(!loaded.isStored)
            let kept = try Self.expectKeptAside(loaded.recovery, bad: bad, file: file)
            #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))

            // The next save writes a fresh good document and leaves the kept file alone.
            #expect(
                try storage.save(
                    PersistedCounter(count: 9), to: StoreDocument(key: "counter", default: PersistedCounter(count: 9))) == nil)
            let reloaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(reloaded == StorageLoad(value: PersistedCounter(count: 9), isStored: true))
            #expect(try Data(contentsOf: kept) == Data(bad.bytes))
        }
    }

    @Test(arguments: BadDocument.all)
    func updateKeepsBadDocumentAsideAndAppliesTheBodyToDefaults(bad: BadDocument) throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)
            let file = try storage.fileURL(forKey: "counter")
            try Data(bad.bytes).write(to: file)

            let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                $0.count += 1
            }
            #expect(update.value == PersistedCounter(count: 1))
            #expect(update.didWrite)
            _ = try Self.expectKeptAside(update.recovery, bad: bad, file: file)
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 1)
        }
    }

    @Test(arguments: BadDocument.all)
    func saveNeverOverwritesABadDocument(bad: BadDocument) throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)
            let file = try storage.fileURL(forKey: "counter")
            try Data(bad.bytes).write(to: file)

            let recovery = try storage.save(
                PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            _ = try Self.expectKeptAside(recovery, bad: bad, file: file)
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 5)
        }
    }

    @Test func unreadableDocumentIsKeptAside() throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)
            let file = try storage.fileURL(forKey: "counter")
            // A folder where the document should be: it exists but can't be read as a file
            // (permission bits would not stop the root user that may run these tests).
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: file.appending(path: "note.txt"))

            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(loaded.value == PersistedCounter())
            guard case .unreadable(let reported, let kept, _) = loaded.recovery else {
                Issue.record("expected .unreadable, got \(String(describing: loaded.recovery))")
                return
            }
            #expect(reported == file)
            #expect(kept.lastPathComponent == "counter~unreadable-20261118T110640Z.json")
            #expect(try Data(contentsOf: kept.appending(path: "note.txt")) == Data("inside".utf8))
            try storage.save(PersistedCounter(count: 4), to: StoreDocument(key: "counter", default: PersistedCounter(count: 4)))
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 4)
        }
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    @Test func pipeInPlaceOfTheDocumentDoesNotHangAndIsKeptAside() throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)
            let file = try storage.fileURL(forKey: "counter")
            try #require(mkfifo(file.path(percentEncoded: false), 0o600) == 0)
            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            guard case .unreadable(_, let kept, _) = loaded.recovery else {
                Issue.record("expected .unreadable, got \(String(describing: loaded.recovery))")
                return
            }
            #expect(kept.lastPathComponent == "counter~unreadable-20261118T110640Z.json")
            #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
        }
    }
    #endif

    @Test func twoRecoveriesInTheSameSecondKeepBothFiles() throws {
        try withTemporaryFolder { folder in
            let storage = try Self.storage(in: folder)  // frozen clock: every recovery has the same time stamp
            let file = try storage.fileURL(forKey: "counter")
            var kept: [URL] = []
            for round in 1...3 {
                try Data("bad \(round)".utf8).write(to: file)
                let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                kept.append(try #require(loaded.recovery?.keptFile))
            }
            #expect(
                kept.map(\.lastPathComponent) == [
                    "counter~corrupt-20261118T110640Z.json",
                    "counter~corrupt-20261118T110640Z-2.json",
                    "counter~corrupt-20261118T110640Z-3.json",
                ])
            for (index, url) in kept.enumerated() {
                #expect(try String(contentsOf: url, encoding: .utf8) == "bad \(index + 1)")
            }
        }
    }

    @Test func leftoverTemporaryFileNeverReplacesTheGoodDocument() throws {
        try withTemporaryFolder { folder in
            // An hour from now: the temporary file below, of an older version, is old by then.
            let storage = FileStorage(folder: folder, now: { Date(timeIntervalSinceNow: 3600) })
            try storage.save(PersistedCounter(count: 8), to: StoreDocument(key: "counter", default: PersistedCounter(count: 8)))
            // What a writer of an older version killed mid-write leaves behind: a partial
            // temporary file, without the writer's process id in its name.
            let stale = folder.appending(path: "counter~0123456789abcdef0123456789abcdef.tmp")
            try Data(#"{"formatVersion": 1, "value": {"cou"#.utf8).write(to: stale)
            // A file that only looks similar is not ours to remove.
            let foreign = folder.appending(path: "counter.json.tmp")
            try Data("someone else's".utf8).write(to: foreign)

            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(loaded == StorageLoad(value: PersistedCounter(count: 8), isStored: true))

            let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                $0.count += 1
            }
            #expect(update.value.count == 9 && update.recovery == nil)
            #expect(!FileManager.default.fileExists(atPath: stale.path(percentEncoded: false)), "stale temporary file removed")
            #expect(FileManager.default.fileExists(atPath: foreign.path(percentEncoded: false)))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
            #expect(names == ["counter.json", "counter.json.tmp", "counter.lock"])
        }
    }

    @Test func reportTellsTheUserWhatToDo() {
        let file = URL(filePath: "/data/profile.json")
        let kept = URL(filePath: "/data/profile~newer-format-20261118T110640Z.json")
        let problem = StorageError.newerFormat(file: file, found: 3, supported: 1, keptAt: kept)
        #expect(problem.description.contains("/data/profile.json"))
        #expect(problem.description.contains("/data/profile~newer-format-20261118T110640Z.json"))
        #expect(problem.recoverySuggestion?.contains("Update the app") == true)
        #expect(problem.errorDescription?.contains("format 3") == true)
        #expect(problem.file == file && problem.keptFile == kept)
    }
}
