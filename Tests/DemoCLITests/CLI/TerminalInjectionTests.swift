import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// Text from storage or the command line never reaches the terminal raw: each command prints it
/// with control characters escaped, on one line.
@Suite("Terminal injection")
struct TerminalInjectionTests {
    static let hostile = "Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{07}"
    static let shown = #"nickname: Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{7}"#

    @Test func aHostileNicknameIsShownEscapedOnOneLine() async throws {
        let folder = try makeTemporaryFolder(prefix: "DemoCLITests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.path(percentEncoded: false)

        let set = CapturedOutput()
        let setStatus = await DemoCLI.run(
            arguments: ["--data-dir", directory, "profile", "set", "--nickname", Self.hostile],
            environment: [:], console: set.console(isTerminal: false))
        #expect(setStatus == .success)
        let show = CapturedOutput()
        let showStatus = await DemoCLI.run(
            arguments: ["--data-dir", directory, "profile", "show"], environment: [:], console: show.console(isTerminal: false))
        #expect(showStatus == .success)

        for output in [set.standardOutput, show.standardOutput] {
            #expect(!output.contains("\u{1B}"))
            #expect(!output.contains("\u{07}"))
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.contains(Self.shown))
            #expect(lines.filter { $0.hasPrefix("gender: ") } == ["gender: none"])
            #expect(lines.filter { $0.hasPrefix("rank: ") } == ["rank: regular"])
        }
        #expect(show.standardOutput.split(separator: "\n").count == 5)
    }

    @Test func aStoredRankAndIDAreEscaped() throws {
        let lines = ProfileCommand.lines(.init(id: "u\r1", nickname: "", rank: .init(rawValue: "gold\u{9B}2J")))
        #expect(lines.contains(#"rank: gold\u{9B}2J"#))
        #expect(lines.contains(#"id: u\r1"#))
    }

    @Test func anUnknownOptionIsEchoedEscaped() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(arguments: ["\u{1B}[2J"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .usage)
        #expect(output.standardError == #"demo-cli: unknown command '\u{1B}[2J' (try 'demo-cli --help')"# + "\n")

        let option = CapturedOutput()
        _ = await DemoCLI.run(
            arguments: ["boost", "start", "--\u{1B}[31m\nx"], environment: [:], console: option.console(isTerminal: false))
        #expect(
            option.standardError
                == #"demo-cli: unknown option '--\u{1B}[31m\nx' for 'boost start' (try 'demo-cli boost start --help')"# + "\n")
    }

    @Test func aBadValueIsEchoedEscaped() async {
        let output = CapturedOutput()
        _ = await DemoCLI.run(
            arguments: ["--speed", "\u{1B}]0;x\u{07}"], environment: [:], console: output.console(isTerminal: false))
        #expect(output.standardError.hasPrefix(#"demo-cli: --speed expects a number from 0.001 to 1000, got '\u{1B}]0;x\u{7}'"#))
        #expect(output.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test func aWarningNamingAFolderWithControlCharactersIsOneEscapedLine() async throws {
        let parent = try makeTemporaryFolder(prefix: "DemoCLITests")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appending(path: "bad\n\u{1B}[31mdir", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("{\"formatVersion\": 1, \"value\": {\"nick".utf8).write(to: folder.appending(path: "profile.json"))

        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", folder.path(percentEncoded: false), "profile", "show"],
            environment: [:], console: output.console(isTerminal: false))
        #expect(status == .success)
        let errors = output.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(errors.count == 1)
        let warning = errors.first.map(String.init) ?? ""
        #expect(warning.hasPrefix("demo-cli: warning: The saved data at "))
        #expect(warning.contains(#"bad\n\u{1B}[31mdir/profile.json is damaged"#))
        #expect(!output.standardError.contains("\u{1B}"))
    }

    @Test func theShowcaseHeaderEscapesTheNicknameAndTheFlow() {
        let header = ShowcaseHeader(nickname: "A\u{1B}[2J\nB", purchaseFlow: "failed: x\ny")
        let state = ShowcaseState(mode: .shared, boostSeconds: 10, header: header)
        let lines = ShowcaseRenderer.header(state)
        #expect(lines[2] == #"Profile: A\u{1B}[2J\nB, gender: none"#)
        #expect(lines[3].hasSuffix(#"flow failed: x\ny"#))
        for line in ShowcaseRenderer.frame(state, color: false) {
            #expect(!line.contains("\u{1B}") && !line.contains("\n"))
        }
    }
}
