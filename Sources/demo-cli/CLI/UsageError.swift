/// Bad command-line input: printed as one line to standard error, followed by a hint, and the
/// program exits with ``ExitStatus/usage`` (64, `EX_USAGE`).
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, in one line, e.g. `unknown option '--foo' for 'boost start'`.
    let message: String
    /// The command whose help explains the right usage, e.g. `boost start`; empty for the program.
    let command: String

    init(_ message: String, command: String = "") {
        self.message = message
        self.command = command
    }

    /// The message and where to find help, as printed: one line, with control characters
    /// escaped (the message may quote what the user typed).
    var description: String {
        let help = command.isEmpty ? "demo-cli --help" : "demo-cli \(command) --help"
        return "demo-cli: \(message.escapingControlCharacters) (try '\(help.escapingControlCharacters)')"
    }
}
