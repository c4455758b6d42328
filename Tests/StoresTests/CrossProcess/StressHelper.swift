import SingletonStoresTestSupport
import Foundation
import Testing

/// The built `storage-stress` helper, run as separate processes on one data folder.
struct StressHelper {
    /// How one run ended.
    struct Run {
        var status: Int32
        var reason: Process.TerminationReason
        var output: String
        var errors: String

        /// Whether the process killed itself with SIGKILL (a fault-injection crash).
        var wasKilled: Bool { reason == .uncaughtSignal && status == SIGKILL }
    }

    let executable: URL
    let folder: URL

    init(folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        executable = try #require(
            found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))", sourceLocation: sourceLocation)
        self.folder = folder
    }

    /// Runs `storage-stress <mode> <folder> <extra…>` and waits for it to exit.
    func run(_ mode: String, _ extra: String...) throws -> Run {
        try runTogether(copies: 1, mode, extra)[0]
    }

    /// Starts `copies` identical runs before waiting for any, then waits for all.
    func runTogether(copies: Int, _ mode: String, _ extra: [String]) throws -> [Run] {
        let started = try (0..<copies).map { _ in try start(mode, extra) }
        return started.map { process, output, errors in
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, reason: process.terminationReason,
                output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
        }
    }

    /// Starts a run without waiting for it.
    func start(_ mode: String, _ extra: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = [mode, folder.path(percentEncoded: false)] + extra
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    /// What a fresh process shows for the folder.
    func report(sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreReport {
        let run = try run("report")
        try #require(run.status == 0 && run.reason == .exit, "report failed: \(run.errors)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(StoreReport.self, from: Data(run.output.utf8))
    }

    /// The fault-injection points one run of `mode` reaches, in order.
    func points(_ mode: String, _ extra: String...) throws -> [String] {
        let run = try runTogether(copies: 1, mode, extra + ["--trace"])[0]
        return run.errors.split(separator: "\n").compactMap { line in
            line.hasPrefix("point ") ? String(line.dropFirst("point ".count)) : nil
        }
    }
}
