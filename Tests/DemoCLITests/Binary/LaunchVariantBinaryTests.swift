import SingletonStoresTestSupport
import Foundation
import Testing

/// `--store-variant` and `SINGLETON_STORES_VARIANTS`, through the binary: the variants are
/// applied with `prepareStores` before anything reads a store, so a run shows stubs and never
/// touches its data folder.
@Suite("Launch variants through the binary", .hangLimit, .ownThread)
struct LaunchVariantBinaryTests {
    @Test func aStubbedBoostAndTheDev01TargetAreShownAndTheDataFolderStaysEmpty() throws {
        try withDemoBinary { binary in
            let variants = ["--store-variant", "boost=running", "--store-variant", "api-target=dev01"]
            let status = try binary.run(variants + ["boost", "status"])
            #expect(status.reason == .exit && status.status == 0)
            #expect(status.lines == ["Boost: 12:34 left. 0 boost items owned."])
            let link = try binary.run(["link", "help"] + variants)
            #expect(link.status == 0)
            #expect(link.lines == ["https://dev01.hoge.com/api/web/help"])
            let target = try binary.run(["target", "show"], environment: ["SINGLETON_STORES_VARIANTS": "api-target=dev01"])
            #expect(target.lines == ["API target: dev01 (https://dev01.hoge.com)"])
            #expect(status.standardError.isEmpty && link.standardError.isEmpty && target.standardError.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false)).isEmpty)
        }
    }

    @Test func withoutVariantsTheDataFolderStoresAreShown() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["target", "set", "dev02"]).status == 0)
            #expect(try binary.run(["link", "help"]).lines == ["https://dev02.hoge.com/api/web/help"])
            let overridden = try binary.run(["link", "help"], environment: ["SINGLETON_STORES_VARIANTS": "api-target=dev01"])
            #expect(overridden.lines == ["https://dev01.hoge.com/api/web/help"])
            let argumentWins = try binary.run(
                ["--store-variant=api-target=production", "link", "help"],
                environment: ["SINGLETON_STORES_VARIANTS": "api-target=dev01"])
            #expect(argumentWins.lines == ["https://www.hoge.com/api/web/help"])
        }
    }

    @Test(arguments: [
        (
            ["--store-variant", "boost=fast", "boost", "status"],
            "The store boost has no variant \"fast\"; its variants: none, running."
        ),
        (["--store-variant", "cart=full", "boost", "status"], "No store is called \"cart\" for launch variants"),
        (["boost", "status", "--store-variant"], "--store-variant needs KEY=NAME"),
        (["--store-variant", "boost=\u{1B}[2J", "boost", "status"], "is not KEY=NAME"),
    ])
    func aBadVariantIsAUsageErrorThatSaysWhatExists(arguments: [String], message: String) throws {
        try withDemoBinary { binary in
            let result = try binary.run(arguments)
            #expect(result.reason == .exit && result.status == 64)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains(message))
            #expect(!result.standardError.contains("\u{1B}"), "control characters are escaped")
            #expect(try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false)).isEmpty)
        }
    }
}
