import Foundation

/// How a child process ended and what it printed.
package struct ChildProcessResult: CustomStringConvertible {
    /// The exit status, or the signal that ended the process.
    package var status: Int32
    /// Whether the process exited or was ended by a signal.
    package var reason: Process.TerminationReason
    /// Everything the process wrote to standard output.
    package var standardOutput: String
    /// Everything the process wrote to standard error.
    package var standardError: String

    /// A result made of its parts.
    package init(status: Int32, reason: Process.TerminationReason, standardOutput: String, standardError: String) {
        self.status = status
        self.reason = reason
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The non-empty lines of standard output.
    package var lines: [String] {
        standardOutput.split(separator: "\n").map(String.init)
    }

    /// The non-empty lines of standard error.
    package var errorLines: [String] {
        standardError.split(separator: "\n").map(String.init)
    }

    /// Whether the process was killed with SIGKILL (a fault-injection crash, say).
    package var wasKilled: Bool { reason == .uncaughtSignal && status == SIGKILL }

    package var description: String {
        "status \(status) (\(reason == .exit ? "exit" : "signal")), output: \(standardOutput), errors: \(standardError)"
    }
}

/// A child process that was started and not yet waited for.
///
/// Standard output goes to a pipe and standard error to a file, so that the child never blocks
/// on a full pipe while the other one is being read.
package struct StartedChild {
    private let process: Process
    /// Standard output, collected as it comes by a thread of its own.
    private let output: GrowingOutput
    private let errorFile: URL

    /// How long a wait for output lasts before the test goes on without it: generous, for a
    /// loaded machine.
    package static let deadline = Duration.seconds(60)

    /// Starts `process` with its standard output and error captured (its standard input, if
    /// not set, is the null device).
    package static func start(_ process: Process) throws -> StartedChild {
        let output = Pipe()
        process.standardOutput = output
        if process.standardInput == nil { process.standardInput = FileHandle.nullDevice }
        let errorFile = FileManager.default.temporaryDirectory
            .appending(path: "child-stderr-\(UUID().uuidString).txt", directoryHint: .notDirectory)
        guard FileManager.default.createFile(atPath: errorFile.path(percentEncoded: false), contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path(percentEncoded: false)])
        }
        do {
            let error = try FileHandle(forWritingTo: errorFile)
            defer { try? error.close() }
            process.standardError = error
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: errorFile)
            throw error
        }
        // The parent's copy of the writing end is closed, so reading ends when the child exits.
        try? output.fileHandleForWriting.close()
        let reading = output.fileHandleForReading
        return StartedChild(
            process: process, output: GrowingOutput { [UInt8](reading.availableData) }, errorFile: errorFile)
    }

    /// Waits until the child has written something to standard output, closed it, or
    /// ``deadline`` has passed.
    package func waitForOutput() {
        _ = output.wait(timeout: Self.deadline) { !$0.isEmpty }
    }

    /// Waits until the child has written a whole line that satisfies `matches`; `nil` when it
    /// closed its output or ``deadline`` passed first.
    @discardableResult
    package func waitForLine(where matches: @escaping (String) -> Bool) -> String? {
        func found(in text: String) -> String? {
            // The last piece is a line still being written.
            text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { matches(String($0)) }.map(
                String.init)
        }
        _ = output.wait(timeout: Self.deadline) { found(in: $0) != nil }
        return found(in: output.text)
    }

    /// The child's process id.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Reads the child's output until it exits, waits for it, and returns what it printed.
    package func finish() throws -> ChildProcessResult {
        defer { try? FileManager.default.removeItem(at: errorFile) }
        _ = output.waitUntilClosed(timeout: .seconds(3600))  // until the child exits
        let outputData = Data(output.text.utf8)
        process.waitUntilExit()
        return ChildProcessResult(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
