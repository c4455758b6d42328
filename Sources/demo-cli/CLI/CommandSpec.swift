/// One command of the CLI: a row of the command table, with everything the parser and the help
/// need, and the function that turns its parsed arguments into a typed ``Command``.
struct CommandSpec: Sendable {
    /// The words that name it: `["boost", "start"]`; empty for the showcase (no command).
    let path: [String]
    /// The positional arguments in help, e.g. `NAME`; empty when it takes none.
    let arguments: String
    /// How many positional arguments it takes.
    let argumentCount: ClosedRange<Int>
    /// One line of help.
    let summary: String
    /// Its own options (the globals are added by the parser).
    let options: [OptionSpec]
    /// Builds the typed command from the parsed arguments, or explains what is wrong.
    let make: @Sendable (ParsedArguments) throws(UsageError) -> Command

    /// `boost start`, or `demo-cli` for the showcase.
    var name: String { path.isEmpty ? "demo-cli" : path.joined(separator: " ") }

    /// The options this command accepts: its own, then the globals.
    var allOptions: [OptionSpec] { options + OptionSpec.globals }

    /// The option named `name`, if this command accepts it.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }
}
