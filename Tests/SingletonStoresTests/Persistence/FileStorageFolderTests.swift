import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

@Suite("FileStorage folder resolution")
struct FileStorageFolderTests {
    let explicit = URL(filePath: "/explicit/data", directoryHint: .isDirectory)

    @Test func argumentWinsOverEverything() {
        let storage = FileStorage(
            folder: explicit, appName: "App",
            environment: [FileStorage.environmentVariable: "/from/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]
        )
        #expect(storage.folder.path(percentEncoded: false) == "/explicit/data/")
    }

    @Test func environmentVariableWinsOverThePlatformFolder() {
        let storage = FileStorage(
            appName: "App",
            environment: [FileStorage.environmentVariable: "/from/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]
        )
        #expect(storage.folder.path(percentEncoded: false) == "/from/env/")  // the folder itself, no app name
    }

    @Test func emptyEnvironmentVariableIsIgnored() {
        let storage = FileStorage(appName: "App", environment: [FileStorage.environmentVariable: "", "HOME": "/home/me"])
        #expect(storage.folder.lastPathComponent == "App")
    }

    #if !canImport(Darwin)
    @Test func xdgDataHomeWinsOverHome() {
        let storage = FileStorage(appName: "App", environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"])
        #expect(storage.folder.path(percentEncoded: false) == "/xdg/App/")
    }

    @Test func homeLocalShareIsTheFallback() {
        let storage = FileStorage(appName: "App", environment: ["HOME": "/home/me"])
        #expect(storage.folder.path(percentEncoded: false) == "/home/me/.local/share/App/")
    }

    @Test func relativeXDGDataHomeIsIgnoredAsTheSpecSays() {
        let storage = FileStorage(appName: "App", environment: ["XDG_DATA_HOME": "relative/dir", "HOME": "/home/me"])
        #expect(storage.folder.path(percentEncoded: false) == "/home/me/.local/share/App/")
    }
    #else
    @Test func applicationSupportOnApplePlatforms() {
        let storage = FileStorage(appName: "App", environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"])
        #expect(storage.folder.path(percentEncoded: false).contains("Application Support/App"))
    }
    #endif

    @Test(arguments: [
        ("My App/2", "My_App_2"), ("../../etc", "__.__etc"), ("", "SingletonStores"), ("com.example.app", "com.example.app"),
    ])
    func appNameIsMadeSafeForAFolderName(name: String, expected: String) {
        let storage = FileStorage(appName: name, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"])
        #expect(storage.folder.lastPathComponent == expected)
    }

    @Test func folderThatIsAFileIsATypedError() throws {
        try withTemporaryFolder { folder in
            let blocker = folder.appending(path: "not-a-folder")
            try Data("x".utf8).write(to: blocker)
            let storage = FileStorage(folder: blocker)
            #expect {
                try storage.save(PersistedCounter(), to: StoreDocument(key: "counter", default: PersistedCounter()))
            } throws: { error in
                guard case StorageError.folderUnavailable(let reported, _) = error else { return false }
                return reported.standardizedFileURL == blocker.standardizedFileURL
            }
        }
    }
}
