import SingletonStoresTestSupport
import Foundation
import Testing
import SingletonStores

@Suite("FileStorage across processes", .ownThread)
struct FileStorageProcessTests {
    @Test func twoProcessesLoseNoIncrement() throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let binary = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try withTemporaryFolder { folder in
            let increments = 300
            let succeeded = try BuiltProduct.runSimultaneously(
                binary, arguments: [folder.path(percentEncoded: false), String(increments)], copies: 2)
            #expect(succeeded == [true, true])
            let total = try FileStorage(folder: folder).load(
                StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(total.value.count == 2 * increments)
            #expect(total.recovery == nil)
        }
    }
}
