import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

/// Documents written by the release that wrote format version 1 load into the values they
/// were written from.
@Suite("Version-1 documents load")
struct VersionOneDocumentTests {
    @Test(arguments: DocumentFixture.all)
    func everyVersionOneFixtureLoads(fixture: DocumentFixture) throws {
        try withTemporaryFolder { folder in
            try fixture.install(version: 1, in: folder)
            let problem = try fixture.check(FileStorage(folder: folder))
            #expect(problem == nil)
        }
    }

    @Test(arguments: [1, 2])
    func everyCheckedInFixtureIsChecked(version: Int) throws {
        let folder = DocumentFixture.folder(version: version)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
        #expect(Set(files) == Set(DocumentFixture.all.map { "\($0.name).json" }))
    }
}
