import Dispatch
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
    /// Whether standard output is a terminal.
    let isTerminal: Bool
    /// Whether colour escape codes may be used: a terminal, and `NO_COLOR` unset or empty.
    let usesColor: Bool

    init(
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        writeLast: (@Sendable (String) -> Void)? = nil,
        isTerminal: Bool,
        usesColor: Bool
    ) {
        self.write = write
        self.writeError = writeError
        self.writeLast = writeLast ?? write
        self.isTerminal = isTerminal
        self.usesColor = usesColor
    }

    /// Writes `line` and a newline to standard output.
    func print(_ line: String) { write(line + "\n") }

    /// Writes `line` and a newline to standard error.
    func printError(_ line: String) { writeError(line + "\n") }

    /// The process's standard output and error.
    static func standard(environment: [String: String]) -> Console {
        let isTerminal = Terminal.isTerminal(fileDescriptor: 1)
        let output = StandardOutputGate()
        return Console(
            write: { output.write($0) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            writeLast: { output.close(after: $0) },
            isTerminal: isTerminal,
            usesColor: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        )
    }
}

/// Writes to standard output one piece at a time, until closed.
///
/// Writes are serialised on one queue, so once ``close(after:)`` has written its text nothing
/// else reaches the terminal, even from a showcase frame being drawn at that very moment.
private final class StandardOutputGate: @unchecked Sendable {
    private let queue = DispatchQueue(label: "demo-cli.standard-output")
    /// Only read and written on `queue`.
    private var isClosed = false

    func write(_ text: String) {
        queue.sync {
            guard !isClosed else { return }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    func close(after text: String) {
        queue.sync {
            guard !isClosed else { return }
            isClosed = true
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
