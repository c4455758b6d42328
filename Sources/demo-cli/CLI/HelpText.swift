/// Help pages generated from ``CommandTable``, wrapped to the output's width.
enum HelpText {
    /// The width help wraps to when the output's is unknown (a pipe without `$COLUMNS`).
    static let defaultWidth = 80
    /// The narrowest and widest help: narrower output still gets readable rows; wider output
    /// keeps lines short enough to read.
    static let widthRange = 40...100

    /// Where the stores' files are, as help shows it.
    struct DataFolder: Sendable, Equatable {
        /// The folder's path.
        var path: String
        /// Where it was chosen: `--data-dir`, the environment, or the per-user default.
        var source: String
    }

    /// The help for `path`: the program (`[]`), a group (`["boost"]`) or a command.
    ///
    /// - Parameters:
    ///   - width: The output's width in columns, if known; clamped to ``widthRange``.
    ///   - dataFolder: The data folder, shown in the program's help.
    static func page(for path: [String], width: Int? = nil, dataFolder: DataFolder? = nil) -> String {
        let columns = min(max(width ?? defaultWidth, widthRange.lowerBound), widthRange.upperBound)
        let lines: [String]
        if path.isEmpty {
            lines = program(width: columns, dataFolder: dataFolder)
        } else if let spec = CommandTable.command(at: path) {
            lines = command(spec, width: columns)
        } else {
            lines = group(path[0], width: columns)
        }
        return lines.joined(separator: "\n")
    }

    /// `demo-cli --help`.
    static func program(width: Int, dataFolder: DataFolder?) -> [String] {
        var lines = wrap("demo-cli — one shared store beats per-screen state (SingletonStores demo)", width: width)
        lines += ["", "USAGE"]
        lines += rows(
            [("demo-cli [--seconds N] [--speed X] [--naive]", "the boost showcase"), ("demo-cli COMMAND [OPTIONS]", "")],
            width: width)
        lines += [""]
        lines += wrap(
            "The showcase starts a demo boost of its own, kept in memory (the saved boost of 'boost start' and "
                + "'boost status' is left alone), and shows it on two screens: \"Main screen\", redrawn from the "
                + "store's notifications as UIKit code is, and \"Boost popup\", opened 0.4 s later and redrawn by "
                + "Swift Observation as a SwiftUI view is. --naive shows the bug this fixes: each screen runs its own "
                + "timer and they disagree.", width: width)
        lines += ["", "COMMANDS"]
        lines += rows(CommandTable.commands.filter { !$0.path.isEmpty }.map { (usage($0), $0.summary) }, width: width)
        lines += ["", "OPTIONS (showcase)"]
        lines += rows(CommandTable.commands[0].options.map { ($0.usage, $0.help) }, width: width)
        lines += ["", "OPTIONS (any command)"]
        lines += rows(
            [(OptionSpec.dataDirectory.usage, OptionSpec.dataDirectoryDetails)]
                + [OptionSpec.logChanges, OptionSpec.help, CommandLineParser.versionOption].map { ($0.usage, $0.help) },
            width: width)
        lines += ["", "DATA FOLDER"]
        let folder = dataFolder.map { "\($0.path.escapingControlCharacters) (\($0.source))" } ?? "the per-user data folder"
        lines += wrap(
            "The stores' files are kept in \(folder). 'demo-cli data-dir' prints it; 'demo-cli reset' removes the "
                + "stores' files from it. State persists there between runs; 'boost watch' and 'show --watch' follow "
                + "what other runs change, live, until Ctrl-C.", width: width, indent: 2)
        lines += ["", "LAUNCH VARIANTS (any command)"]
        lines += rows(
            [
                (
                    "--store-variant KEY=NAME",
                    "Use a stub for one store this run, as UI tests do; repeatable. boost=none|running (12:34 left), "
                        + "api-target=production|dev01|dev02, gender=female|male|none. Also "
                        + "$SINGLETON_STORES_VARIANTS, e.g. \"boost=running,api-target=dev01\"; arguments win. A "
                        + "stubbed store never reads or writes the data folder."
                )
            ], width: width)
        lines += ["", "EXIT STATUS"]
        lines += rows(
            [
                ("0", "Done (a live view ended with Ctrl-C too)."),
                ("1", "Refused or failed (a storage error, no boost items…): a message says why."),
                (
                    "3",
                    "'purchase buy': bought and recorded, but not credited yet (another run holds the purchases "
                        + "store, the disk is full…): it is credited when the purchases store is free, at the next "
                        + "run; do not buy again."
                ),
                (
                    "4",
                    "Done, and read so from now on, but the disk reported an error while saving it: a power cut may "
                        + "bring back the value before. A message names the file; run the command again."
                ),
                ("64", "Bad command line."),
                (
                    "74",
                    "Done, but the output could not be written (standard output closed, full, or a pipe nobody "
                        + "reads): do not run the command again; look at the state instead."
                ),
                (
                    "75",
                    "A value to be saved at exit could not be saved (another run held its store past the lock "
                        + "timeout, the disk was full…) and is lost: a message names the store; set it again."
                ),
                ("130", "Interrupted (Ctrl-C)."),
            ], width: width)
        lines += [""]
        lines += wrap("Run 'demo-cli COMMAND --help' for a command's options.", width: width)
        return lines
    }

    /// `demo-cli boost --help`.
    static func group(_ name: String, width: Int) -> [String] {
        var lines = ["USAGE"] + wrap("demo-cli \(name) COMMAND [OPTIONS]", width: width, indent: 2) + ["", "COMMANDS"]
        lines += rows(CommandTable.subcommands(of: name).map { (usage($0), $0.summary) }, width: width)
        lines += [""] + wrap("Run 'demo-cli \(name) COMMAND --help' for a command's options.", width: width)
        return lines
    }

    /// `demo-cli boost start --help`: its options, then the global ones in one line each (the
    /// program's help explains them).
    static func command(_ spec: CommandSpec, width: Int) -> [String] {
        var lines = ["USAGE"] + wrap("demo-cli " + usage(spec) + " [OPTIONS]", width: width, indent: 2) + [""]
        lines += wrap(spec.summary, width: width)
        lines += ["", "OPTIONS"]
        lines += rows(spec.allOptions.map { ($0.usage, $0.help) }, width: width)
        return lines
    }

    private static func usage(_ spec: CommandSpec) -> String {
        ([spec.path.joined(separator: " ")] + (spec.arguments.isEmpty ? [] : [spec.arguments])).joined(separator: " ")
    }

    /// Two columns, indented by two: the names padded to the widest, each text wrapped beside
    /// its name. When that leaves the text too little room, it goes under its name instead.
    static func rows(_ rows: [(name: String, text: String)], width: Int) -> [String] {
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let column = 2 + nameWidth + 2
        var lines: [String] = []
        for (name, text) in rows {
            let room = width - column
            if text.isEmpty {
                lines += wrap(name, width: width, indent: 2)
            } else if room >= 24, !text.split(separator: " ").contains(where: { $0.count > room }) {
                let wrapped = wrap(text, width: width - column)
                let padding = String(repeating: " ", count: column)
                for (index, line) in wrapped.enumerated() {
                    lines.append(index == 0 ? "  " + pad(name, nameWidth) + "  " + line : padding + line)
                }
            } else {
                lines += wrap(name, width: width, indent: 2)
                lines += wrap(text, width: width, indent: 6)
            }
        }
        return lines
    }

    /// `text` in lines of at most `width` columns (a single longer word gets a line of its own),
    /// each indented by `indent` spaces.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let room = max(width - indent, 1)
        let padding = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= room {
                current += " " + word
            } else {
                lines.append(padding + current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(padding + current) }
        return lines
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
