import Foundation
import SingletonStoresTestSupport
import Testing
@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// A data folder whose path the system cannot hold is refused before any folder is created.
@Suite("FileStorage: over-long folder paths")
struct FileStorageFolderLengthTests {
    /// Everything under `folder`, as paths relative to it.
    private func contents(of folder: URL) -> [String] {
        FileManager.default.subpaths(atPath: folder.path(percentEncoded: false)) ?? []
    }

    private func expectRefused(
        _ storage: FileStorage, mentioning text: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            Issue.record("the save succeeded", sourceLocation: sourceLocation)
        } catch {
            guard case .folderUnavailable(_, let reason) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                return
            }
            if let text { #expect(reason.contains(text), "\(reason)", sourceLocation: sourceLocation) }
        }
    }

    @Test func aNameOverTheLimitCreatesNoParentFolder() throws {
        try withTemporaryFolder { parent in
            let parents = (1...20).map { "p\($0)" }.joined(separator: "/")
            let folder = parent.appending(
                path: "\(parents)/\(String(repeating: "x", count: 256))/data", directoryHint: .isDirectory)
            #if os(Linux)
            let reason: String? = "256 bytes long"
            #else
            let reason: String? = nil  // the system may refuse the path before the check does
            #endif
            expectRefused(FileStorage(folder: folder, reportNotice: { _ in }), mentioning: reason)
            #expect(contents(of: parent).isEmpty)
        }
    }

    @Test func aPathOverTheLimitCreatesNoParentFolder() throws {
        try withTemporaryFolder { parent in
            let names = Array(repeating: String(repeating: "y", count: 200), count: 25)
            let folder = parent.appending(path: names.joined(separator: "/"), directoryHint: .isDirectory)
            // The system may refuse it first ("File name too long"); either way nothing is made.
            expectRefused(FileStorage(folder: folder, reportNotice: { _ in }), mentioning: nil)
            #expect(contents(of: parent).isEmpty)
        }
    }

    @Test func namesAndPathsAtTheLimitAreAccepted() {
        #expect(FileStorageFolder.lengthProblem(of: "/tmp/" + String(repeating: "z", count: 255)) == nil)
        #expect(FileStorageFolder.lengthProblem(of: "/tmp/" + String(repeating: "z", count: 256)) != nil)
        // "/www…/www…/…/w…": names of 99 bytes, the whole exactly at the limit, then one byte over.
        let limit = FileStorageFolder.maximumPathLength
        var path = ""
        while path.utf8.count + 100 <= limit { path += "/" + String(repeating: "w", count: 99) }
        path += "/" + String(repeating: "w", count: limit - path.utf8.count - 1)
        #expect(path.utf8.count == limit)
        #expect(FileStorageFolder.lengthProblem(of: path) == nil)
        #expect(FileStorageFolder.lengthProblem(of: path + "w") != nil)
    }
}
#endif
