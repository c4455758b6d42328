// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "An app and its widget" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles and its test runs;
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
// `declareSharedStores` is never called here: it would set the process's base stores (the
// storage-stress helper's `app-group` does it in a process of its own, see
// SingletonStoresTests/Persistence/SharedDataFolderProcessTests).
import Testing

// Article "AnAppAndItsWidget" snippet 1: begin
import Foundation
import SingletonStores

struct ReadingGoal: Codable, Sendable, Equatable {
    var pagesPerDay = 20
    var pagesReadToday = 0
}

enum ReadingGoalKey: ProductionStoreKey {
    static let productionValue = ValueStore(key: "reading-goal", default: ReadingGoal())
    static var stubValue: ValueStore<ReadingGoal> { ValueStore(stub: ReadingGoal()) }
}

extension StoreValues {
    var readingGoal: ValueStore<ReadingGoal> {
        get { self[ReadingGoalKey.self] }
        set { self[ReadingGoalKey.self] = newValue }
    }
}
// Article "AnAppAndItsWidget" snippet 1: end

// Article "AnAppAndItsWidget" snippet 2: begin
/// The folder the app and its widget share: the App Group container on Apple platforms.
func sharedStoresFolder() -> URL? {
    #if canImport(Darwin)
    FileManager.default
        .containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.reader")?
        .appending(path: "Stores", directoryHint: .isDirectory)
    #else
    FileManager.default.homeDirectoryForCurrentUser
        .appending(path: ".local/share/com.example.reader", directoryHint: .isDirectory)
    #endif
}

func declareSharedStores() {  // in the app's init, and in the widget bundle's init
    prepareStores { $0.dataFolder = sharedStoresFolder() }
}
// Article "AnAppAndItsWidget" snippet 2: end

// Article "AnAppAndItsWidget" snippet 3: begin
func readPages(_ pages: Int, goal: ValueStore<ReadingGoal> = StoreValues.current.readingGoal) throws(StorageError) {
    try goal.update { $0.pagesReadToday += pages }
}

func widgetText(goal: ValueStore<ReadingGoal> = StoreValues.current.readingGoal) -> String {
    "\(goal.value.pagesReadToday) of \(goal.value.pagesPerDay) pages"
}
// Article "AnAppAndItsWidget" snippet 3: end

// Article "AnAppAndItsWidget" snippet 4: begin
@Test func theWidgetShowsWhatTheAppRead() throws {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "reader-\(UUID().uuidString)", directoryHint: .isDirectory)
    defer { try? FileManager.default.removeItem(at: folder) }
    try withStores { $0.dataFolder = folder } operation: {
        let app = ValueStore(key: "reading-goal", default: ReadingGoal())
        try readPages(12, goal: app)

        let widget = ValueStore(key: "reading-goal", default: ReadingGoal())  // made later, as a widget's is
        #expect(widgetText(goal: widget) == "12 of 20 pages")
    }
    #expect(FileManager.default.fileExists(atPath: folder.appending(path: "reading-goal.json").path(percentEncoded: false)))
}
// Article "AnAppAndItsWidget" snippet 4: end

@Suite struct AnAppAndItsWidgetArticleTests {
    @Test func theSharedFolderIsOneFolderOfTheApps() throws {
        let folder = try #require(sharedStoresFolder())
        #expect(folder.hasDirectoryPath)
        #expect(folder.path(percentEncoded: false).contains("com.example.reader") || folder.lastPathComponent == "Stores")
    }

    @Test func aStoreMadeOutsideTheScopeDoesNotUseItsFolder() throws {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "reader-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = withStores { $0.dataFolder = folder } operation: { FileStorage().folder }
        #expect(inside == folder.standardizedFileURL)
        #expect(FileStorage(environment: ["HOME": "/nonexistent"]).folder != inside)
    }
}
