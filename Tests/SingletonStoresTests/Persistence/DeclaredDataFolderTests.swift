import Foundation
import SingletonStoresTestSupport
import SingletonStoresLocking
import Testing

@testable import SingletonStores

/// One declaration (`StoreValues.dataFolder`) sets where every store without a storage of its
/// own keeps its documents; a test declares it for its own scope only.
@Suite("The declared data folder")
struct DeclaredDataFolderTests {
    /// An environment that names no folder, so that only the declaration can choose one.
    static let environment = ["HOME": "/nonexistent-home"]

    @Test func aStorageMadeWithoutAFolderUsesTheDeclaredOne() throws {
        try withTemporaryFolder { folder in
            let group = folder.appending(path: "group/Stores", directoryHint: .isDirectory)
            try withStores {
                $0.dataFolder = group
            } operation: {
                #expect(FileStorage(environment: Self.environment).folder == group.standardizedFileURL)
                let store = ValueStore(key: "counter", default: PersistedCounter(), center: NotificationCenter(), watching: .off)
                try store.update { $0.count = 5 }
            }
            let stored = try FileStorage(folder: group).load(StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(stored.value.count == 5)
        }
    }

    @Test func theDeclarationWinsOverTheEnvironmentAndAnExplicitFolderWinsOverIt() throws {
        let declared = URL(filePath: "/declared/Stores", directoryHint: .isDirectory)
        let fromEnvironment = ["SINGLETON_STORES_DATA_DIR": "/from-environment", "HOME": "/home/someone"]
        withStores {
            $0.dataFolder = declared
        } operation: {
            #expect(FileStorage(environment: fromEnvironment).folder == declared)
            #expect(FileStorage(folder: URL(filePath: "/explicit"), environment: fromEnvironment).folder.path() == "/explicit")
            #expect(FileStorage(appName: "Other", environment: Self.environment).folder == declared)
        }
        #expect(FileStorage(environment: fromEnvironment).folder.path(percentEncoded: false).hasPrefix("/from-environment"))
    }

    @Test func aScopeCanTakeTheDeclarationBackAndOutsideItNothingIsDeclared() {
        withStores {
            $0.dataFolder = URL(filePath: "/declared")
        } operation: {
            withStores {
                $0.dataFolder = nil
            } operation: {
                #expect(StoreValues.current.dataFolder == nil)
                #expect(
                    FileStorage(environment: Self.environment).folder.path(percentEncoded: false).hasPrefix("/nonexistent-home"))
            }
        }
        #expect(StoreValues.current.dataFolder == nil)
    }
}

/// Inside the `prepareStores` that declares the folder, a store made after the declaration uses
/// it without sealing the preparation; one made before it is reported.
@Suite("Declaring the data folder in prepareStores")
struct DataFolderPreparationTests {
    static let declared = URL(filePath: "/declared/Stores", directoryHint: .isDirectory)

    /// Prepares, on a preparation of its own, values that declare ``declared`` and make a
    /// storage without a folder, before the declaration or after it.
    static func prepare(storageFirst: Bool) -> (
        applied: Bool, storageFolder: URL?, issues: [StoreIssue], base: StoreValues
    ) {
        let preparation = StorePreparation()
        let issues = Locked<[StoreIssue]>([])
        let made = Locked<URL?>(nil)
        let makeStorage = { made.withLock { $0 = FileStorage(environment: DeclaredDataFolderTests.environment).folder } }
        let applied = preparation.prepare(
            { values in
                if storageFirst { makeStorage() }
                values.dataFolder = declared
                if !storageFirst { makeStorage() }
            }, reportIssue: { issue in issues.withLock { $0.append(issue) } })
        return (applied, made.withLock { $0 }, issues.withLock { $0 }, preparation.seal())
    }

    @Test func aStoreMadeAfterTheDeclarationInTheSameCallUsesItAndThePreparationApplies() {
        let prepared = Self.prepare(storageFirst: false)
        #expect(prepared.applied)
        #expect(prepared.storageFolder == Self.declared.standardizedFileURL)
        #expect(prepared.issues.isEmpty)
        #expect(prepared.base.dataFolder == Self.declared)
    }

    @Test func aStoreMadeBeforeTheDeclarationIsReported() throws {
        let prepared = Self.prepare(storageFirst: true)
        #expect(prepared.applied, "the declaration applies to every store made after it")
        let folder = try #require(prepared.storageFolder)
        #expect(folder.path(percentEncoded: false).hasPrefix("/nonexistent-home/"))
        #expect(
            prepared.issues == [.storeMadeBeforeDataFolder(storeFolder: folder, dataFolder: Self.declared.standardizedFileURL)])
        #expect(prepared.issues.first.map { "\($0)" }?.contains("Set $0.dataFolder first") == true)
    }
}
