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
    private let output: Pipe
    private let errorFile: URL
    /// Output already read while waiting for it; ``finish()`` returns it too.
    private let alreadyRead = Recorder<Data>()

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
        return StartedChild(process: process, output: output, errorFile: errorFile)
    }

    /// Waits until the child has written something to standard output, or closed it; what it
    /// wrote is kept for ``finish()``.
    package func waitForOutput() {
        let chunk = output.fileHandleForReading.availableData
        alreadyRead.append(chunk)
    }

    /// Waits until the child has written a whole line that satisfies `matches`, or closed its
    /// output (then `nil`); everything read is kept for ``finish()``.
    @discardableResult
    package func waitForLine(where matches: (String) -> Bool) -> String? {
        var searched = 0
        while true {
            let text = String(decoding: alreadyRead.values.reduce(Data(), +), as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()  // the last is unfinished
            if let line = lines.dropFirst(searched).first(where: { matches(String($0)) }) { return String(line) }
            searched = lines.count
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            alreadyRead.append(chunk)
        }
    }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Reads the child's output until it exits, waits for it, and returns what it printed.
    package func finish() throws -> ChildProcessResult {
        defer { try? FileManager.default.removeItem(at: errorFile) }
        // Reads until the child exits.
        let outputData = alreadyRead.values.reduce(Data(), +) + output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ChildProcessResult(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
