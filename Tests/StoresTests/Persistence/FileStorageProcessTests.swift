import SingletonStoresTestSupport
import Foundation
import Testing
import Stores

@Suite("FileStorage across processes")
struct FileStorageProcessTests {
    @Test func twoProcessesLoseNoIncrement() throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let binary = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try withTemporaryFolder { folder in
            let increments = 300
            let processes = (0..<2).map { _ in
                let process = Process()
                process.executableURL = binary
                process.arguments = [folder.path(percentEncoded: false), String(increments)]
                return process
            }
            for process in processes { try process.run() }
            for process in processes {
                process.waitUntilExit()  // waits for the helper to finish, not for a time
                #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            }
            let total = try FileStorage(folder: folder).load(PersistedCounter.self, forKey: "counter", default: PersistedCounter())
            #expect(total.value.count == 2 * increments)
            #expect(total.recovery == nil)
        }
    }
}
