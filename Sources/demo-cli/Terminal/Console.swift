import Foundation

/// Where the CLI writes, and what the output can do: a terminal (redraw in place, hide the
/// cursor) or a pipe (plain lines), with or without colour.
struct Console: Sendable {
    /// Writes text to standard output as it is (add the newline yourself).
    let write: @Sendable (String) -> Void
    /// Writes text to standard error as it is.
    let writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal.
    let isTerminal: Bool
    /// Whether colour escape codes may be used: a terminal, and `NO_COLOR` unset or empty.
    let usesColor: Bool

    /// Writes `line` and a newline to standard output.
    func print(_ line: String) { write(line + "\n") }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    /// The process's standard output and error.
    static func standard(environment: [String: String]) -> Console {
        let isTerminal = Terminal.isTerminal(fileDescriptor: 1)
        return Console(
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            isTerminal: isTerminal,
            usesColor: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        )
    }
}
