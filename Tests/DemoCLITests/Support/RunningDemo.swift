import Foundation
import SingletonStoresTestSupport
import Testing

/// A `demo-cli` run that keeps running — a live view such as `boost watch` — whose standard
/// output and error are read as they come.
///
/// ```swift
/// let watcher = try RunningDemo.start(binary, ["profile", "show", "--watch"])
/// try watcher.waitForLine("id: (none)")
/// _ = try binary.runInFolder(["profile", "set", "--nickname", "Aki"])
/// try watcher.waitForLine("nickname: Aki")
/// let ended = try watcher.interrupt()   // SIGINT, then waits for the exit
/// ```
///
/// Pair each start with `defer { watcher.endIfRunning() }`, so a failed test leaves no process.
///
/// Every wait has a generous deadline; a wait that runs out records an issue showing what was
/// written, and throws.
struct RunningDemo {
    /// How long a wait for a line lasts before the test fails: generous, for a loaded machine.
    static let deadline = Duration.seconds(30)

    /// The child process.
    let process: Process
    /// Its standard output so far.
    let output: GrowingOutput
    /// Its standard error so far.
    let errors: GrowingOutput

    /// Starts `demo-cli arguments…` with the data folder given through
    /// `SINGLETON_STORES_DATA_DIR`, standard output and error on pipes read as they come.
    static func start(_ binary: DemoBinary, _ arguments: [String]) throws -> RunningDemo {
        let process = try binary.makeProcess(arguments, withDataFolder: false, environment: binary.folderEnvironment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The parent's copies of the writing ends are closed, so reading ends when the child exits.
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let reader = { (handle: FileHandle) -> GrowingOutput in
            GrowingOutput { [UInt8](handle.availableData) }
        }
        return RunningDemo(
            process: process, output: reader(output.fileHandleForReading), errors: reader(errors.fileHandleForReading))
    }

    /// The non-empty lines of standard output so far.
    var lines: [String] {
        output.text.split(separator: "\n").map(String.init)
    }

    /// Waits until standard output has a line after the first `after` lines for which `matches`
    /// holds; returns its index.
    @discardableResult
    func waitForLine(
        after: Int = 0, _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
        where matches: @escaping (String) -> Bool
    ) throws -> Int {
        let found = output.wait(timeout: Self.deadline) { text in
            text.split(separator: "\n").dropFirst(after).contains { matches(String($0)) }
        }
        guard found, let index = lines.indices.dropFirst(after).first(where: { matches(lines[$0]) }) else {
            Issue.record(
                "no line \(description) after line \(after) within \(Self.deadline); output: \(output.text.debugDescription), errors: \(errors.text.debugDescription)",
                sourceLocation: sourceLocation)
            throw RunningDemoError.timedOut
        }
        return index
    }

    /// Waits until standard output has the line `line` after the first `after` lines.
    @discardableResult
    func waitForLine(after: Int = 0, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try waitForLine(after: after, line.debugDescription, sourceLocation: sourceLocation) { $0 == line }
    }

    /// Sends SIGINT (Ctrl-C) and waits for the child to exit; kills it if it does not.
    func interrupt(sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, reason: Process.TerminationReason)
    {
        process.interrupt()
        guard process.waitForExit(within: Self.deadline) else {
            Issue.record(
                "the child did not exit after SIGINT (it was killed); output: \(output.text.debugDescription)",
                sourceLocation: sourceLocation)
            throw RunningDemoError.timedOut
        }
        _ = output.waitUntilClosed(timeout: Self.deadline)
        _ = errors.waitUntilClosed(timeout: Self.deadline)
        return (process.terminationStatus, process.terminationReason)
    }
}

extension RunningDemo {
    /// Kills the child (SIGKILL) if it still runs — after a test failed early; use in `defer`.
    func endIfRunning() {
        process.endNow()
    }
}

/// Why a ``RunningDemo`` wait failed (the issue recorded says more).
enum RunningDemoError: Error {
    /// The awaited output or exit did not come before the deadline.
    case timedOut
}

extension DemoBinary {
    /// The child environment that names this binary's data folder, as a user's shell would
    /// with `SINGLETON_STORES_DATA_DIR`.
    var folderEnvironment: [String: String] {
        ["SINGLETON_STORES_DATA_DIR": dataFolder.path(percentEncoded: false)]
    }

    /// Runs `demo-cli arguments…` to its end with the data folder from the environment.
    func runInFolder(_ arguments: [String]) throws -> Result {
        try run(arguments, withDataFolder: false, environment: folderEnvironment)
    }
}
