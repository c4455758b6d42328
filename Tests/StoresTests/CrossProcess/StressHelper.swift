import SingletonStoresTestSupport
import Foundation
import Testing

/// The built `storage-stress` helper, run as separate processes on one data folder.
struct StressHelper {
    /// How one run ended.
    typealias Run = ChildProcessResult

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
        return try started.map { try $0.finish() }
    }

    /// Starts a run without waiting for it.
    func start(_ mode: String, _ extra: [String]) throws -> StartedChild {
        let process = Process()
        process.executableURL = executable
        process.arguments = [mode, folder.path(percentEncoded: false)] + extra
        return try StartedChild.start(process)
    }

    /// What a fresh process shows for the folder.
    func report(sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreReport {
        let run = try run("report")
        try #require(
            run.status == 0 && run.reason == .exit, "report failed: \(run.standardError)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(StoreReport.self, from: Data(run.standardOutput.utf8))
    }

    /// The fault-injection points one run of `mode` reaches, in order.
    func points(_ mode: String, _ extra: String...) throws -> [String] {
        let run = try runTogether(copies: 1, mode, extra + ["--trace"])[0]
        return run.errorLines.compactMap { line in
            line.hasPrefix("point ") ? String(line.dropFirst("point ".count)) : nil
        }
    }
}
