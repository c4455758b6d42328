import Foundation
import Testing
import Stores

@Suite("FileStorage across processes")
struct FileStorageProcessTests {
    /// Folders where SwiftPM puts the products built beside this test bundle.
    static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(filePath: first).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders
    }

    /// The built `storage-stress` helper, or `nil` with the places searched.
    static func stressBinary() -> (URL?, searched: [URL]) {
        let folders = candidateFolders()
        for folder in folders {
            let binary = folder.appending(path: "storage-stress", directoryHint: .notDirectory)
            if FileManager.default.isExecutableFile(atPath: binary.path(percentEncoded: false)) {
                return (binary, folders)
            }
        }
        return (nil, folders)
    }

    @Test func twoProcessesLoseNoIncrement() throws {
        let (found, searched) = Self.stressBinary()
        let binary = try #require(
            found,
            """
            storage-stress was not found next to the test bundle (searched: \
            \(searched.map { $0.path(percentEncoded: false) }.joined(separator: ", "))). \
            Build it first: swift build --build-tests (it is the `storage-stress` executable target).
            """
        )
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
