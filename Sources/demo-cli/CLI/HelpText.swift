/// Help pages generated from ``CommandTable``.
enum HelpText {
    /// The help for `path`: the program (`[]`), a group (`["boost"]`) or a command.
    static func page(for path: [String]) -> String {
        if path.isEmpty { return program }
        if let spec = CommandTable.command(at: path) { return command(spec) }
        return group(path[0])
    }

    /// `demo-cli --help`.
    static var program: String {
        var lines = [
            "demo-cli — one shared store beats per-screen state (SingletonStores demo)",
            "",
            "USAGE",
            "  demo-cli [--seconds N] [--speed X] [--naive]   the boost showcase",
            "  demo-cli COMMAND [OPTIONS]",
            "",
            "The showcase starts a short boost and shows it on two screens, \"Main screen\" (redrawn",
            "from the store's notifications, as UIKit code is) and \"Boost popup\" (opened 0.4 s later,",
            "redrawn by Swift Observation, as a SwiftUI view is).",
            "--naive shows the bug this fixes: each screen runs its own timer and they disagree.",
            "",
            "COMMANDS",
        ]
        let specs = CommandTable.commands.filter { !$0.path.isEmpty }
        let width = specs.map { usage($0).count }.max() ?? 0
        for spec in specs {
            lines.append("  " + pad(usage(spec), width) + "  " + spec.summary)
        }
        lines += ["", "OPTIONS (showcase)"]
        lines += optionLines(CommandTable.commands[0].allOptions)
        lines += [
            "",
            "LAUNCH VARIANTS (any command)",
            "  --store-variant KEY=NAME   Use a stub for one store this run, as UI tests do; repeatable.",
            "                             boost=none|running (12:34 left), api-target=production|dev01|dev02,",
            "                             gender=female|male|unset. Also $SINGLETON_STORES_VARIANTS, e.g.",
            "                             \"boost=running,api-target=dev01\"; arguments win. A stubbed store",
            "                             never reads or writes the data folder.",
        ]
        lines += [
            "",
            "State persists in the data folder between runs; 'boost watch' and 'show --watch' follow",
            "what other runs change, live, until Ctrl-C. Exit status: 0 done (and a live view ended with",
            "Ctrl-C), 1 refused or failed, 64 bad command line, 74 done but the output could not be",
            "written (standard output closed, full or a pipe nobody reads: do not run it again), 130",
            "interrupted.",
            "Run 'demo-cli COMMAND --help' for a command's options.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `demo-cli boost --help`.
    static func group(_ name: String) -> String {
        var lines = ["USAGE", "  demo-cli \(name) COMMAND [OPTIONS]", "", "COMMANDS"]
        let specs = CommandTable.subcommands(of: name)
        let width = specs.map { usage($0).count }.max() ?? 0
        for spec in specs {
            lines.append("  " + pad(usage(spec), width) + "  " + spec.summary)
        }
        lines += ["", "Run 'demo-cli \(name) COMMAND --help' for a command's options."]
        return lines.joined(separator: "\n")
    }

    /// `demo-cli boost start --help`.
    static func command(_ spec: CommandSpec) -> String {
        var lines = ["USAGE", "  demo-cli " + usage(spec) + " [OPTIONS]", "", spec.summary, "", "OPTIONS"]
        lines += optionLines(spec.allOptions)
        return lines.joined(separator: "\n")
    }

    private static func usage(_ spec: CommandSpec) -> String {
        ([spec.path.joined(separator: " ")] + (spec.arguments.isEmpty ? [] : [spec.arguments])).joined(separator: " ")
    }

    private static func optionLines(_ options: [OptionSpec]) -> [String] {
        let width = options.map(\.usage.count).max() ?? 0
        return options.map { "  " + pad($0.usage, width) + "  " + $0.help }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
