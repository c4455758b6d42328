import Foundation
import SingletonStoresTestSupport

extension DemoBinary {
    /// Runs `demo-cli --data-dir <folder> arguments…` through `sh -c script`, where the script
    /// starts it with `exec "$@"` and whatever redirections or limits it needs
    /// (`exec "$@" >&-` closes standard output, `ulimit -f 0` makes every file write fail).
    ///
    /// - Parameter standardOutput: Where the shell's standard output goes; a pipe read to its
    ///   end by default. Standard error is always a pipe (never a file, which a file-size limit
    ///   would stop), read to its end.
    /// - Throws: ``ChildProcessTimeout`` when the shell did not exit within
    ///   ``StartedChild/exitDeadline`` (it is killed).
    func runInShell(_ script: String, _ arguments: [String], standardOutput: FileHandle? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments =
            [
                "-c", script, "demo-cli", executable.path(percentEncoded: false), "--data-dir",
                dataFolder.path(percentEncoded: false),
            ]
            + arguments
        process.environment = Self.childEnvironment()
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let output = Pipe()
        process.standardOutput = standardOutput ?? output.fileHandleForWriting
        try process.run()
        // The parent's copies of the writing ends are closed, so reading ends when the child exits.
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let outputText = GrowingOutput { [UInt8](output.fileHandleForReading.availableData) }
        let errorText = GrowingOutput { [UInt8](errors.fileHandleForReading.availableData) }
        guard process.waitForExit(within: StartedChild.exitDeadline) else {
            throw ChildProcessTimeout(
                command: "sh -c \(script)", reason: "still running after \(StartedChild.exitDeadline)",
                standardOutput: outputText.text, standardError: errorText.text)
        }
        // It exited: its pipes close, unless a process it started keeps them open.
        _ = outputText.waitUntilClosed(timeout: StartedChild.deadline)
        _ = errorText.waitUntilClosed(timeout: StartedChild.deadline)
        return Result(
            status: process.terminationStatus, reason: process.terminationReason, standardOutput: outputText.text,
            standardError: errorText.text)
    }
}
