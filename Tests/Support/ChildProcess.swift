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
///
/// Every wait has an end: a wait that runs out kills the child (SIGKILL) and throws
/// ``ChildProcessTimeout``, which fails the test, so that a test never waits forever for a
/// child and never leaves one running behind it.
package struct StartedChild {
    private let process: Process
    /// Standard output, collected as it comes by a thread of its own.
    private let output: GrowingOutput
    private let errorFile: URL

    /// How long a wait for output lasts before the test fails: generous, for a loaded machine.
    package static let deadline = Duration.seconds(60)

    /// How long ``finish(within:)`` waits for the child to exit by default: long enough for the
    /// slowest helper run under the thread sanitizer on a loaded machine.
    package static let exitDeadline = Duration.seconds(300)

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

    /// Waits until the child has written something to standard output or closed it.
    ///
    /// - Parameter bound: How long to wait; ``deadline`` by default.
    /// - Throws: ``ChildProcessTimeout`` when neither happened within `bound` (the child is
    ///   killed).
    package func waitForOutput(within bound: Duration = deadline) throws {
        guard output.wait(timeout: bound, until: { !$0.isEmpty }) || output.isClosed else {
            throw giveUp("no output")
        }
    }

    /// Waits until the child has written a whole line that satisfies `matches`, and returns it.
    ///
    /// - Parameter bound: How long to wait; ``deadline`` by default.
    /// - Throws: ``ChildProcessTimeout`` when the child closed its output without such a line,
    ///   or `bound` passed first (the child is killed).
    @discardableResult
    package func waitForLine(within bound: Duration = deadline, where matches: @escaping (String) -> Bool) throws
        -> String
    {
        func found(in text: String) -> String? {
            // The last piece is a line still being written.
            text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { matches(String($0)) }.map(
                String.init)
        }
        _ = output.wait(timeout: bound) { found(in: $0) != nil }
        guard let line = found(in: output.text) else { throw giveUp("no matching line") }
        return line
    }

    /// The child's process id.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Lets go a child that stopped itself (`storage-stress --pause-at`) and waits for it to
    /// exit, returning what it printed. The child prints its line just before it stops, so one
    /// SIGCONT sent between the two would be lost and leave it stopped for good: SIGCONT is sent
    /// again every 50 ms until the child exits, at most `bound`.
    ///
    /// - Throws: ``ChildProcessTimeout`` when the child did not exit within `bound`.
    package func continueUntilExit(within bound: Duration = exitDeadline) throws -> ChildProcessResult {
        let deadline = ContinuousClock.now + bound
        repeat {
            send(SIGCONT)
        } while !process.waitWhileRunning(upTo: .milliseconds(50)) && ContinuousClock.now < deadline
        return try finish(within: max(deadline - ContinuousClock.now, .zero))
    }

    /// Reads the child's output until it exits, waits for it, and returns what it printed.
    ///
    /// - Parameter bound: How long to wait for the exit; ``exitDeadline`` by default.
    /// - Throws: ``ChildProcessTimeout`` when the child did not exit within `bound` (it is
    ///   killed, and what it printed so far is in the error).
    package func finish(within bound: Duration = exitDeadline) throws -> ChildProcessResult {
        defer { try? FileManager.default.removeItem(at: errorFile) }
        guard process.waitForExit(within: bound) else { throw giveUp("still running after \(bound)") }
        // It exited: its output closes, unless a process it started keeps the pipe open.
        _ = output.waitUntilClosed(timeout: Self.deadline)
        return ChildProcessResult(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: output.text,
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// Kills the child (a wait for it ran out) and describes why and what it printed.
    private func giveUp(_ reason: String) -> ChildProcessTimeout {
        process.endNow()
        let errors = (try? Data(contentsOf: errorFile)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return ChildProcessTimeout(
            command: ([process.executableURL?.lastPathComponent ?? "?"] + (process.arguments ?? [])).joined(separator: " "),
            reason: reason, standardOutput: output.text, standardError: errors)
    }
}

/// A wait for a child process ran out; the child was killed.
package struct ChildProcessTimeout: Error, CustomStringConvertible {
    /// The command line, for the failure message.
    package var command: String
    /// What the test waited for in vain.
    package var reason: String
    /// What the child wrote to standard output before it was killed.
    package var standardOutput: String
    /// What it wrote to standard error.
    package var standardError: String

    /// A timeout made of its parts.
    package init(command: String, reason: String, standardOutput: String, standardError: String) {
        self.command = command
        self.reason = reason
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    package var description: String {
        "gave up on the child process `\(command)` (\(reason)); it was killed. Output: \(standardOutput.debugDescription), "
            + "errors: \(standardError.debugDescription)"
    }
}

extension Process {
    /// Waits until the process has exited, at most `bound`, polling (a blocking wait: call it
    /// off the cooperative pool, see ``OwnThreadTrait``). When it has not, kills it (SIGKILL)
    /// and waits for that.
    ///
    /// - Returns: Whether it exited by itself within `bound`.
    package func waitForExit(within bound: Duration) -> Bool {
        if waitWhileRunning(upTo: bound) { return true }
        endNow()
        return false
    }

    /// Kills the process with SIGKILL if it runs, and waits (briefly) until it is reaped, so
    /// that its status can be read.
    package func endNow() {
        guard isRunning else { return }
        kill(processIdentifier, SIGKILL)
        _ = waitWhileRunning(upTo: .seconds(30))
    }

    /// Polls ``isRunning`` until it is false or `bound` has passed; whether it ended.
    fileprivate func waitWhileRunning(upTo bound: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: bound)
        var pause: UInt32 = 200
        while isRunning {
            if clock.now >= deadline { return false }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
        return true
    }
}
