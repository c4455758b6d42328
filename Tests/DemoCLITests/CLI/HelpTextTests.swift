import Foundation
import Testing
@testable import demo_cli

@Suite("HelpText")
struct HelpTextTests {
    @Test func programHelpListsEveryCommandAndTheShowcaseOptions() {
        let help = HelpText.page(for: [])
        for spec in CommandTable.commands where !spec.path.isEmpty {
            #expect(help.contains(spec.path.joined(separator: " ")), "missing \(spec.name)")
        }
        for option in ["--seconds N", "--speed X", "--naive", "--data-dir PATH", "--help"] {
            #expect(help.contains(option))
        }
    }

    @Test(arguments: CommandTable.commands.filter { !$0.path.isEmpty }.map(\.path))
    func commandHelpListsItsOptions(_ path: [String]) throws {
        let spec = try #require(CommandTable.command(at: path))
        let help = HelpText.page(for: path)
        #expect(help.contains("demo-cli \(path.joined(separator: " "))"))
        // The summary may be wrapped over several lines.
        #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(spec.summary))
        for option in spec.allOptions {
            #expect(help.contains(option.usage))
        }
    }

    @Test(arguments: CommandTable.groups)
    func groupHelpListsItsCommands(_ group: String) {
        let help = HelpText.page(for: [group])
        let subcommands = CommandTable.subcommands(of: group)
        #expect(!subcommands.isEmpty)
        for spec in subcommands {
            #expect(help.contains(spec.name))
        }
    }

    @Test func optionNamesAreUniquePerCommand() {
        for spec in CommandTable.commands {
            let names = spec.allOptions.map(\.name)
            #expect(Set(names).count == names.count, "\(spec.name) lists an option twice")
        }
    }
}

/// Help fits the output's width, explains `--data-dir` once, and names the data folder.
@Suite("HelpText layout")
struct HelpTextLayoutTests {
    static var pages: [[String]] {
        [[]] + CommandTable.groups.map { [$0] } + CommandTable.commands.map(\.path).filter { !$0.isEmpty }
    }

    @Test(arguments: [40, 60, 80, 100])
    func everyPageFitsTheWidth(_ width: Int) {
        for path in Self.pages {
            for line in HelpText.page(for: path, width: width).split(separator: "\n") {
                // A single word longer than the width (a path, say) may exceed it; none is here.
                #expect(line.count <= width, "\(path) at \(width): \(line)")
            }
        }
    }

    @Test func narrowHelpIsWrappedNotCut() {
        let help = HelpText.page(for: ["boost", "watch"], width: 40)
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(CommandTable.command(at: ["boost", "watch"])?.summary ?? "missing"))
    }

    @Test func theDataDirectoryParagraphIsInTheProgramsHelpOnly() {
        let details = OptionSpec.dataDirectoryDetails
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(flat(HelpText.page(for: [])).contains(details))
        for path in CommandTable.commands.map(\.path).filter({ !$0.isEmpty }) {
            let help = HelpText.page(for: path)
            #expect(!flat(help).contains(details), "\(path)")
            #expect(help.contains("--data-dir PATH"))
        }
    }

    @Test func programHelpNamesTheDataFolderAndTheExitStatuses() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--help"], environment: ["HOME": "/home/aki"], console: output.console(isTerminal: false, width: 100))
        #expect(status == .success)
        #if !canImport(Darwin)
        let words = output.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("/home/aki/.local/share/demo-cli (the per-user default)"))
        #endif
        for status in [ExitStatus.success, .failure, .purchaseNotYetCredited, .usage, .outputFailed, .valuesLost, .interrupted] {
            #expect(output.standardOutput.contains("\n  \(status.rawValue) "), "exit status \(status.rawValue) is listed")
        }
        let given = CapturedOutput()
        _ = await DemoCLI.run(
            arguments: ["--data-dir", "/srv/demo", "--help"], environment: [:], console: given.console(isTerminal: false))
        #expect(
            given.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(
                "/srv/demo (from --data-dir)"))
    }

    @Test func theWidthComesFromTheOutput() async {
        let output = CapturedOutput()
        _ = await DemoCLI.run(arguments: ["--help"], environment: [:], console: output.console(isTerminal: false, width: 50))
        #expect(output.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 50 })
        #expect(output.standardOutput.split(separator: "\n").contains { $0.count > 45 })
    }
}

/// `--version` prints the package's version, the newest release in CHANGELOG.md.
@Suite("Version")
struct VersionTests {
    @Test func theVersionIsTheNewestReleaseOfTheChangelog() throws {
        let changelog = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../CHANGELOG.md")
        let text = try String(contentsOf: changelog.standardizedFileURL, encoding: .utf8)
        let release = text.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let version = try #require(release?.dropFirst(4).prefix { $0 != "]" })
        #expect(PackageVersion.current == String(version))
    }

    @Test func versionPrintsIt() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(arguments: ["--version"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .success)
        #expect(output.standardOutput == "demo-cli \(PackageVersion.current) (SingletonStores)\n")
    }
}
