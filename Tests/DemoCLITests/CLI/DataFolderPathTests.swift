import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// A leading `~` in `--data-dir` or `$SINGLETON_STORES_DATA_DIR` is the user's home folder.
@Suite("DataFolderPath")
struct DataFolderPathTests {
    static let home = ["HOME": "/home/aki"]

    @Test(arguments: [
        ("~", "/home/aki"), ("~/", "/home/aki/"), ("~/demo", "/home/aki/demo"), ("~/a/b c", "/home/aki/a/b c"),
        ("/tmp/~", "/tmp/~"), ("demo/~/x", "demo/~/x"), ("relative", "relative"), ("/abs", "/abs"),
    ])
    func expandsOnlyALeadingTilde(_ given: String, _ expected: String) throws {
        #expect(try DataFolderPath.resolve(option: given, environment: Self.home) == expected)
    }

    @Test func aHomeWithATrailingSlashOrTheRootMakesNoDoubleSlash() throws {
        #expect(
            try DataFolderPath.expandingTilde(in: "~/d", from: "--data-dir", environment: ["HOME": "/home/aki/"]) == "/home/aki/d"
        )
        #expect(try DataFolderPath.expandingTilde(in: "~/d", from: "--data-dir", environment: ["HOME": "/"]) == "/d")
        #expect(try DataFolderPath.expandingTilde(in: "~", from: "--data-dir", environment: ["HOME": "/"]) == "/")
    }

    @Test(arguments: ["~bob", "~bob/demo", "~+", "~~"])
    func anotherUsersHomeIsAUsageError(_ given: String) {
        #expect(throws: UsageError.self) { try DataFolderPath.resolve(option: given, environment: Self.home) }
    }

    @Test(arguments: [[String: String](), ["HOME": ""], ["HOME": "relative/home"]])
    func aTildeWithoutAnAbsoluteHomeIsAUsageError(_ environment: [String: String]) {
        #expect(throws: UsageError.self) { try DataFolderPath.resolve(option: "~/demo", environment: environment) }
    }

    @Test func theEnvironmentVariableIsExpandedTooAndTheOptionWins() throws {
        var environment = Self.home
        environment["SINGLETON_STORES_DATA_DIR"] = "~/from-env"
        #expect(try DataFolderPath.resolve(option: nil, environment: environment) == "/home/aki/from-env")
        #expect(try DataFolderPath.resolve(option: "~/from-option", environment: environment) == "/home/aki/from-option")
        environment["SINGLETON_STORES_DATA_DIR"] = ""
        #expect(try DataFolderPath.resolve(option: nil, environment: environment) == nil)
        #expect(try DataFolderPath.resolve(option: nil, environment: Self.home) == nil)
    }

    @Test func aProfileSetWithATildeDataDirLandsInTheHomeFolder() async throws {
        let home = try makeTemporaryFolder(prefix: "DemoCLITests-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", "~/demo data", "profile", "set", "--nickname", "Aki"],
            environment: ["HOME": home.path(percentEncoded: false)], console: output.console(isTerminal: false))
        #expect(status == .success)
        #expect(output.standardError.isEmpty)
        let file = home.appending(path: "demo data/profile.json")
        #expect(FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
    }

    @Test func anotherUsersHomeExitsWithStatus64AndTouchesNothing() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", "~bob/demo", "profile", "show"], environment: Self.home,
            console: output.console(isTerminal: false))
        #expect(status == .usage)
        #expect(output.standardOutput.isEmpty)
        #expect(
            output.standardError
                == "demo-cli: --data-dir '~bob': another user's home folder is not supported; give the full path (try 'demo-cli --help')\n"
        )
    }

    @Test func helpNeedsNoDataFolder() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", "~bob", "--help"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .success)
    }

    @Test func theHelpDocumentsTheTilde() {
        let help = HelpText.page(for: []).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("a leading ~ or ~/ means $HOME (~user is refused)"))
    }
}
