import Foundation
import SingletonStoresTestSupport
import Testing

import SingletonStores

/// Two real processes — an app and its widget — that declare the same folder at launch, and
/// make their stores without naming one, read and write the same documents.
@Suite("A data folder shared by two processes", .ownThread)
struct SharedDataFolderProcessTests {
    /// Runs `storage-stress app-group <arguments>` with a home of its own and no data folder in
    /// its environment, so that only the declaration can bring two processes together.
    static func runAppGroup(_ arguments: [String], home: URL) throws -> ChildProcessResult {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let binary = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["app-group"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SINGLETON_STORES_DATA_DIR"] = nil
        environment["XDG_DATA_HOME"] = nil
        environment["HOME"] = home.path(percentEncoded: false)
        process.environment = environment
        return try StartedChild.start(process).finish()
    }

    @Test func aSecondProcessThatDeclaresTheSameFolderSeesTheFirstOnesChange() throws {
        try withTemporaryFolder { folder in
            let group = folder.appending(path: "group/Stores", directoryHint: .isDirectory)
            let appHome = folder.appending(path: "app-home", directoryHint: .isDirectory)
            let widgetHome = folder.appending(path: "widget-home", directoryHint: .isDirectory)
            let group0 = group.path(percentEncoded: false)

            let app = try Self.runAppGroup([group0, "add", "5"], home: appHome)
            #expect(app.status == 0 && app.lines == ["count 5"], "\(app)")
            let widget = try Self.runAppGroup([group0, "show"], home: widgetHome)
            #expect(widget.status == 0 && widget.lines == ["count 5"], "\(widget)")
            let widgetWrites = try Self.runAppGroup([group0, "add", "2"], home: widgetHome)
            #expect(widgetWrites.lines == ["count 7"], "\(widgetWrites)")
            let appAgain = try Self.runAppGroup([group0, "show"], home: appHome)
            #expect(appAgain.lines == ["count 7"], "\(appAgain)")

            // The documents are in the declared folder, and nowhere under either home.
            #expect(FileManager.default.fileExists(atPath: group.appending(path: "counter.json").path(percentEncoded: false)))
            #expect(!FileManager.default.fileExists(atPath: appHome.path(percentEncoded: false)))
            #expect(!FileManager.default.fileExists(atPath: widgetHome.path(percentEncoded: false)))
        }
    }

    @Test func anotherStoreOnTheKeyIsRefusedAndTheFirstStoreInAnotherProcessKeepsItsData() throws {
        try withTemporaryFolder { folder in
            let group = folder.appending(path: "group", directoryHint: .isDirectory)
            let home = folder.appending(path: "home", directoryHint: .isDirectory)
            let written = try Self.runAppGroup([group.path(percentEncoded: false), "add", "6"], home: home)
            #expect(written.lines == ["count 6"], "\(written)")
            let file = group.appending(path: "counter.json")
            let bytes = try Data(contentsOf: file)

            // A store of another type made later on the key (a feature module, an older widget).
            let other = ValueStore(
                key: "counter", default: [String](), storage: FileStorage(folder: group), center: NotificationCenter(),
                watching: .off, reportIssue: { _ in })
            #expect(other.value == [])
            guard case .documentOfAnotherStore(let reported, "PersistedCounter", "Array<String>")? = other.loadProblem else {
                Issue.record("expected a clash, got \(String(describing: other.loadProblem))")
                return
            }
            #expect(reported.path(percentEncoded: false) == file.standardizedFileURL.path(percentEncoded: false))
            #expect(throws: StorageError.self) { try other.update { $0.append("x") } }
            #expect(try Data(contentsOf: file) == bytes)

            let again = try Self.runAppGroup([group.path(percentEncoded: false), "show"], home: home)
            #expect(again.status == 0 && again.lines == ["count 6"], "\(again)")
        }
    }
}
