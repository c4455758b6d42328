import SingletonStoresTestSupport
import Foundation
import Testing

/// The built `demo-cli` executable, run as a child process with its own data folder.
struct DemoBinary {
    /// What one run printed and how it ended.
    typealias Result = ChildProcessResult

    let executable: URL
    /// The data folder every run gets with `--data-dir`; removed by ``removeDataFolder()``.
    let dataFolder: URL

    /// Finds the built binary next to the test bundle and makes a fresh data folder.
    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (found, searched) = BuiltProduct.locate("demo-cli")
        executable = try #require(
            found, "\(BuiltProduct.notFoundMessage("demo-cli", searched: searched))", sourceLocation: sourceLocation)
        dataFolder = try makeTemporaryFolder(prefix: "DemoCLITests")
    }

    /// Deletes the data folder.
    func removeDataFolder() {
        try? FileManager.default.removeItem(at: dataFolder)
    }

    /// The child's environment: this process's, without the variables that would change where
    /// data goes or how output looks.
    static func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SINGLETON_STORES_DATA_DIR"] = nil
        environment["NO_COLOR"] = nil
        environment["SINGLETON_STORES_VARIANTS"] = nil
        // Long, so that a slow machine (the thread sanitizer) never makes a writer give up; a
        // test about the wait passes its own.
        environment["SINGLETON_STORES_LOCK_TIMEOUT"] = "600"
        return environment.merging(extra) { $1 }
    }

    /// Runs `demo-cli --data-dir <folder> arguments…` and waits for it to exit. Standard
    /// output is a pipe (as in `demo-cli | cat`); standard error goes to a file, so neither can
    /// fill up while the other is read.
    func run(_ arguments: [String], withDataFolder: Bool = true, environment: [String: String] = [:]) throws -> Result {
        try StartedChild.start(makeProcess(arguments, withDataFolder: withDataFolder, environment: environment)).finish()
    }

    /// A process for `demo-cli [--data-dir <folder>] arguments…`, not started.
    func makeProcess(_ arguments: [String], withDataFolder: Bool = true, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = (withDataFolder ? ["--data-dir", dataFolder.path(percentEncoded: false)] : []) + arguments
        process.environment = Self.childEnvironment(environment)
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

/// Runs `body` with a fresh ``DemoBinary`` and removes its data folder afterwards.
func withDemoBinary<Result>(sourceLocation: SourceLocation = #_sourceLocation, _ body: (DemoBinary) throws -> Result) throws
    -> Result
{
    let binary = try DemoBinary(sourceLocation: sourceLocation)
    defer { binary.removeDataFolder() }
    return try body(binary)
}
