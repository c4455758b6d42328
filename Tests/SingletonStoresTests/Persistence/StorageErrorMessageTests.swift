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
