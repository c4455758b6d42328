import Foundation
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing
@testable import SingletonStores

/// An update of a document that can never be written — another program's file in a folder the
/// library did not make — throws before its body runs: a body that spends or decides under the
/// lock (an item spent on a boost) must not act on a write that can't happen. (From outside:
/// `boost use` with another program's `boost.json` spent an item and started no boost.)
@Suite("FileStorage: an update that can't be written does not run its body")
struct FileStorageRefusedUpdateTests {
    @Test(arguments: [#"{"volume": 11}"#, "not json at all", ""])
    func anotherProgramsFileRefusesTheUpdateBeforeItsBody(contents: String) throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "counter.json")
            try Data(contents.utf8).write(to: file)
            let ran = Locked(false)
            #expect {
                try FileStorage(folder: folder).update(StoreDocument(key: "counter", default: 0)) { value in
                    ran.withLock { $0 = true }
                    value += 1
                }
            } throws: { error in
                guard case .keepAsideFailed(let named, _) = error as? StorageError else { return false }
                return named.lastPathComponent == "counter.json"
            }
            #expect(!ran.withLock { $0 }, "the body ran for a write that could not happen")
            #expect(try Data(contentsOf: file) == Data(contents.utf8), "the file is left as it was")
        }
    }
}
