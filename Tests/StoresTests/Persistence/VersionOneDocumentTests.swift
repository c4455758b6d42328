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

    @Test func everyCheckedInFixtureIsChecked() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DocumentFixture.folder(version: 1).path(percentEncoded: false))
        #expect(Set(files) == Set(DocumentFixture.all.map { "\($0.name).json" }))
    }
}
