// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of a document's identity and of the declared data folder, verbatim between the
// markers, inside what they assume, so that they compile and, where that sets nothing for the
// whole process, run. QuickStartTests/DocCommentSnippetTests checks that the comments and this
// file agree.
import Foundation
import SingletonStores
import Testing

/// The reader settings under their new name: their documents are still the store's.
struct ReaderPreferences: Codable, Sendable, Equatable {
    // Doc "SingletonStores/Persistence/StoreDocument.swift" snippet 2: begin
static let document = StoreDocument(key: "reader-settings", default: ReaderPreferences(), identity: "ReaderSettings")
    // Doc "SingletonStores/Persistence/StoreDocument.swift" snippet 2: end
    var fontSize = 14.0
}

/// The folder an app shares with its widget, as the article "An app and its widget" makes it.
private func sharedStoresFolder() -> URL? {
    FileManager.default.temporaryDirectory.appending(path: "reader-stores", directoryHint: .isDirectory)
}

/// What an app runs first thing at launch; never called here, where it would set the stores of
/// the whole test process.
func declareTheSharedFolder() {
    // Doc "SingletonStores/Registry/Launch/StoreValues+DataFolder.swift" snippet 1: begin
prepareStores {
    $0.dataFolder = sharedStoresFolder()  // on Apple platforms, a folder in the App Group container
}
    // Doc "SingletonStores/Registry/Launch/StoreValues+DataFolder.swift" snippet 1: end
}

/// A purchase's credits, written once the payment is taken.
struct Credits: Codable, Sendable {
    static let document = StoreDocument(key: "credits", default: Credits())
    var count = 0
}

/// Refuses a purchase, before its payment, whose credits could not be written.
func checkBeforeCharging(storage: FileStorage) throws {
    // Doc "SingletonStores/Persistence/StorageError.swift" snippet 2: begin
if let problem = try storage.load(Credits.document).recovery, problem.refusesWrites {
    throw problem  // refuse before charging: the credits could not be written
}
    // Doc "SingletonStores/Persistence/StorageError.swift" snippet 2: end
}

@Suite struct DocumentIdentityDocCommentTests {
    @Test func aPurchaseIsRefusedBeforeChargingWhenItsCreditsCouldNotBeWritten() throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "credits-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileStorage(folder: folder, reportNotice: { _ in })
        try checkBeforeCharging(storage: storage)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"formatVersion": 3, "value": {"count": 6}}"#.utf8).write(to: folder.appending(path: "credits.json"))
        #expect(throws: StorageError.self) { try checkBeforeCharging(storage: storage) }
    }

    @Test func aRenamedTypeKeepsReadingItsDocuments() throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "identity-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = FileStorage(folder: folder, reportNotice: { _ in })
        try storage.save(ReaderSettings(fontSize: 18), to: ReaderSettings.document)
        let loaded = try storage.load(ReaderPreferences.document)
        #expect(loaded.value.fontSize == 18 && loaded.recovery == nil)
        #expect(try storage.load(StoreDocument(key: "reader-settings", default: ReaderPreferences())).recovery != nil)
    }

    @Test func theDeclaredFolderIsWhereStoresWithoutAFolderWrite() throws {
        let folder = try #require(sharedStoresFolder())
        withStores { $0.dataFolder = folder } operation: {
            #expect(FileStorage().folder == folder.standardizedFileURL)
        }
    }
}
