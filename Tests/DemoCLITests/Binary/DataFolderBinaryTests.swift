import Foundation
import SingletonStoresTestSupport
import Testing

/// The data folder through the binary: an unusable one is one clear error, never defaults
/// shown as if they were stored.
@Suite("The data folder through the binary", .hangLimit, .ownThread)
struct DataFolderBinaryTests {
    @Test(arguments: [["profile", "show"], ["boost", "status"], ["boost", "start"], ["purchase", "buy"]])
    func anUnusableFolderIsOneErrorAndAFailure(_ command: [String]) throws {
        try withDemoBinary { binary in
            let file = binary.dataFolder.appending(path: "file")
            try Data("not a folder".utf8).write(to: file)
            let folder = file.appending(path: "data").path(percentEncoded: false)
            let result = try binary.run(["--data-dir", folder] + command, withDataFolder: false)
            #expect(result.reason == .exit && result.status == 1, "\(result)")
            #expect(result.standardOutput.isEmpty, "no defaults shown as if stored")
            #expect(result.errorLines.count == 1, "\(result.errorLines)")
            #expect(result.errorLines.first?.hasPrefix("demo-cli: The data folder \(folder)") == true)
            #expect(result.standardError.contains("a file is in the way at \(file.path(percentEncoded: false))"))
        }
    }

    @Test func aPathWithAnOverLongNameCreatesNoFolder() throws {
        try withDemoBinary { binary in
            let parents = (1...20).map { "p\($0)" }.joined(separator: "/")
            let folder = binary.dataFolder.path(percentEncoded: false) + "/\(parents)/" + String(repeating: "x", count: 300)
            let result = try binary.run(["--data-dir", folder, "boost", "start"], withDataFolder: false)
            #expect(result.reason == .exit && result.status == 1, "\(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1, "\(result.errorLines)")
            #expect(result.standardError.contains("300 bytes long"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false)).isEmpty)
        }
    }
}
