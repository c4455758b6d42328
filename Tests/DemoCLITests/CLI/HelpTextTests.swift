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
        #expect(help.contains(spec.summary))
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
