import Foundation
import SingletonStores
import Testing

/// What an error tells a person: a file where the storage keeps files, and never a file where it
/// keeps something else (a database's row).
@Suite("Storage error messages")
struct StorageErrorMessageTests {
    private static let row = URL(string: "postgres://db.example:5432/app/singleton_stores/settings")
    private static let keptRow = URL(string: "postgres://db.example:5432/app/singleton_stores/settings~corrupt-1")

    @Test func aDocumentKeptAsAFileIsSpokenOfAsAFile() {
        let file = URL(filePath: "/tmp/data/profile.json")
        let kept = URL(filePath: "/tmp/data/profile~corrupt-1.json")
        let damaged = "\(StorageError.corrupted(file: file, keptAt: kept, reason: "not JSON"))"
        #expect(damaged.contains("repair the kept file"), "\(damaged)")
        let newer = "\(StorageError.newerFormat(file: file, found: 9, supported: 2, keptAt: kept))"
        #expect(newer.contains("move the kept file back"), "\(newer)")
    }

    @Test func aDocumentKeptAsARowIsNeverCalledAFile() throws {
        let row = try #require(Self.row)
        let kept = try #require(Self.keptRow)
        let messages = [
            StorageError.corrupted(file: row, keptAt: kept, reason: "not JSON"),
            StorageError.unreadable(file: row, keptAt: kept, reason: "not a document"),
            StorageError.newerFormat(file: row, found: 9, supported: 2, keptAt: kept),
            StorageError.newerValueVersion(file: row, found: 9, supported: 2, keptAt: kept),
        ].map { "\($0)" }
        for message in messages {
            #expect(!message.contains("file"), "\(message)")
            #expect(message.contains("kept document"), "\(message)")
            #expect(message.contains("postgres://db.example:5432/app/singleton_stores/settings~corrupt-1"), "\(message)")
        }
    }

    /// Every error that names where a document is kept, about a row: none speaks of a file, a
    /// folder or a disk, in what happened or in what to do (the reasons here say none of them).
    @Test func noErrorAboutARowSpeaksOfFilesFoldersOrDisks() throws {
        let row = try #require(Self.row)
        let kept = try #require(Self.keptRow)
        let errors: [StorageError] = [
            .corrupted(file: row, keptAt: kept, reason: "not JSON"),
            .unreadable(file: row, keptAt: kept, reason: "not a document"),
            .newerFormat(file: row, found: 9, supported: 2, keptAt: kept),
            .newerValueVersion(file: row, found: 9, supported: 2, keptAt: kept),
            .newerFormatLeftInPlace(file: row, found: 9, supported: 2),
            .newerValueVersionLeftInPlace(file: row, found: 9, supported: 2),
            .documentOfAnotherStore(file: row, owner: "Wallet", store: "Settings"),
            .migrationFailed(file: row, from: 1, failedStep: 1, reason: "no such step"),
            .writeFailed(file: row, reason: "the server said: the quota is used up (SQLSTATE 53100)"),
            .notDurable(file: row, reason: "the replica did not confirm"),
            .lockFailed(file: row, reason: "the server said: too many locks (SQLSTATE 53200)"),
            .lockTimedOut(file: row, holder: nil, waited: .seconds(5)),
            .readFailed(file: row, reason: "the server said: out of memory (SQLSTATE 53200)"),
            .keepAsideFailed(file: row, reason: "the server said: read-only transaction (SQLSTATE 25006)"),
        ]
        for error in errors {
            let message = "\(error)"
            for word in ["file", "folder", "disk"] {
                #expect(!message.lowercased().contains(word), "“\(word)” in: \(message)")
            }
            #expect(message.contains("postgres://db.example:5432/app/singleton_stores/settings"), "\(message)")
        }
        // The same errors about a file still say so, and what to check there.
        let file = URL(filePath: "/tmp/data/profile.json")
        #expect("\(StorageError.writeFailed(file: file, reason: "No space left on device"))".contains("the disk is not full"))
        #expect("\(StorageError.readFailed(file: file, reason: "Input/output error"))".contains("the file and its folder"))
        #expect("\(StorageError.lockFailed(file: file, reason: "Bad file descriptor"))".contains("The lock file /tmp/data"))
    }

    /// A storage that breaks its promise — a transaction that waits comes back without an
    /// outcome — is named as the defect, by the store's key: not as a file in the current folder.
    @Test func aStorageThatComesBackWithoutAnOutcomeIsReportedAsDefective() {
        let store = ValueStore(key: "visits", default: 0, storage: Unpromising(), center: NotificationCenter(), watching: .off)
        #expect {
            try store.update { $0 += 1 }
        } throws: { error in
            guard let error = error as? StorageError, case .writeFailed(let location, let reason) = error else { return false }
            let message = "\(error)"
            return location.absoluteString == "store:visits" && reason.contains("a defect of the storage")
                && !message.contains(FileManager.default.currentDirectoryPath) && !message.lowercased().contains("disk")
        }
        #expect(store.value == 0)
    }

    @Test func aBadNameSaysWhatKindOfNameItIs() {
        let key = "\(StorageError.invalidKey("../escape", reason: "a store name can't contain a path separator"))"
        #expect(key.contains("a store name can't contain a path separator"), "\(key)")
        #expect(key.contains("Use 1–120 letters"), "\(key)")
        #expect(!key.contains("file"), "\(key)")
        let table = "\(StorageError.invalidKey("x;drop", reason: "a table name is 1 to 48 letters"))"
        #expect(table.contains("a table name is 1 to 48 letters"), "\(table)")
        #expect(!table.contains("store name") && !table.contains("file"), "\(table)")
    }

    /// Every key the storages refuse is refused with a reason that names a store name.
    @Test(arguments: ["", "a/b", "..", ".hidden", "white space", String(repeating: "k", count: 121)])
    func aKeyIsRefusedAsAStoreName(key: String) {
        #expect {
            _ = try InMemoryStorage().read(key)
        } throws: { error in
            guard case StorageError.invalidKey(_, let reason) = error else { return false }
            return reason.hasPrefix("a store name")
        }
    }
}

/// A storage that never commits, breaking the promise of a transaction that waits.
private struct Unpromising: StoreStorage {
    func read(_ key: String) throws(StorageError) -> StoredBytes? { nil }

    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? { nil }

    func watch(
        forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? { nil }
}

/// What an error says comes in part from outside — a reason a storage of one's own or a server
/// gives, a key, a path, an address — and is printed to a terminal: it never carries a control
/// or formatting character raw.
@Suite("Storage error messages print as what they say")
struct StorageErrorEscapingTests {
    /// Characters that move the cursor, change a terminal's state or reorder a line.
    private static let hostile = "a\u{1B}]0;owned\u{07}b\u{9B}31m\nc\r\u{202E}d\u{2066}\u{2028}"

    private static func isRaw(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test func noMessageCarriesAControlCharacterRaw() throws {
        let row = try #require(URL(string: "postgres://db.example:5432/app/stores/settings"))
        let file = URL(filePath: "/tmp/data\u{1B}[2J/profile\u{202E}.json")
        let errors: [StorageError] = [
            .invalidKey(Self.hostile, reason: Self.hostile),
            .writeFailed(file: row, reason: Self.hostile),
            .writeFailed(file: file, reason: Self.hostile),
            .readFailed(file: row, reason: Self.hostile),
            .corrupted(file: file, keptAt: file, reason: Self.hostile),
            .encodingFailed(key: Self.hostile, reason: Self.hostile),
            .backendUnreachable(backend: Self.hostile, reason: Self.hostile),
            .commitOutcomeUnknown(backend: Self.hostile, key: Self.hostile, reason: Self.hostile),
        ]
        for error in errors {
            for text in [error.description, error.errorDescription ?? "", error.recoverySuggestion ?? ""] {
                #expect(!text.unicodeScalars.contains(where: Self.isRaw), "\(text.debugDescription)")
            }
            // Shown as escapes, and once: text the library escaped already is not escaped again.
            #expect(error.description.contains("\\u{1B}]0;owned\\u{7}"), "\(error.description)")
            #expect(error.description.contains("\\n") && error.description.contains("\\u{202E}"))
        }
        let escapedAlready = StorageError.folderUnavailable(folder: URL(filePath: "/tmp"), reason: "/tmp/a\\u{1B}b is a link")
        #expect(escapedAlready.description.contains("/tmp/a\\u{1B}b is a link"), "\(escapedAlready.description)")
    }
}
