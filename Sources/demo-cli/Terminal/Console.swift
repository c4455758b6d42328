import Foundation

/// Where the CLI writes, and what the output can do: a terminal (redraw in place, hide the
/// cursor) or a pipe (plain lines), with or without colour.
struct Console: Sendable {
    /// Writes text to standard output as it is (add the newline yourself).
    let write: @Sendable (String) -> Void
    /// Writes text to standard error as it is.
    let writeError: @Sendable (String) -> Void
    /// Writes `text` as the very last output: every later ``write`` is dropped. Ctrl-C uses it
    /// to give the cursor back without a frame being drawn after it.
    let writeLast: @Sendable (String) -> Void
    /// Whether standard output is a live terminal: a terminal, and `TERM` is not `dumb` (a dumb
    /// terminal cannot move the cursor, so it gets plain lines as a pipe does).
    let isTerminal: Bool
    /// Whether colour escape codes may be used: a live terminal, and `NO_COLOR` unset or empty.
    let usesColor: Bool
    /// The width of the output in columns, when known: the terminal's, else `$COLUMNS`.
    let width: Int?
    /// Why writing to standard output failed (`No space left on device`), or `nil` while every
    /// write has succeeded. Once it failed, later writes are dropped.
    let outputFailure: @Sendable () -> String?
    /// Whether standard input is a terminal, so a question can be asked.
    let isInputTerminal: Bool
    /// Reads one line of standard input, without its newline; `nil` at its end.
    let readLine: @Sendable () -> String?

    init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        writeLast: (@Sendable (String) -> Void)? = nil,
        isTerminal: Bool,
        usesColor: Bool,
        width: Int? = nil,
        outputFailure: @escaping @Sendable () -> String? = { nil },
        isInputTerminal: Bool = false,
        readLine: @escaping @Sendable () -> String? = { nil }
    ) {
        self.write = write
        self.writeError = writeError
        self.writeLast = writeLast ?? write
        self.isTerminal = isTerminal
        self.usesColor = usesColor
        self.width = width
        self.outputFailure = outputFailure
        self.isInputTerminal = isInputTerminal
        self.readLine = readLine
    }

    /// Writes `line` and a newline to standard output.
    func print(_ line: String) { write(line + "\n") }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    /// The process's standard input, output and error.
    ///
    /// - Parameters:
    ///   - environment: `TERM`, `NO_COLOR` and `COLUMNS` are read.
    ///   - closed: The standard descriptors that were closed at launch
    ///     (``StandardDescriptors/claim()``): writing to them fails.
    static func standard(environment: [String: String], closed: Set<Int32> = []) -> Console {
        let isTerminal = Terminal.isLive(fileDescriptor: 1, environment: environment)
        let output = StandardStream(descriptor: 1, failure: closed.contains(1) ? EBADF : nil)
        let errors = StandardStream(descriptor: 2, failure: closed.contains(2) ? EBADF : nil)
        return Console(
            write: { output.write($0) },
            writeError: { errors.write($0) },
            writeLast: { output.close(after: $0) },
            isTerminal: isTerminal,
            usesColor: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty,
            width: Terminal.width(fileDescriptor: 1, environment: environment),
            outputFailure: { output.failure },
            isInputTerminal: !closed.contains(0) && Terminal.isTerminal(fileDescriptor: 0),
            readLine: { Swift.readLine(strippingNewline: true) }
        )
    }
}
