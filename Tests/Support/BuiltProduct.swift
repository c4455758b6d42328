import Foundation

/// Executables SwiftPM builds beside the test bundle (`demo-cli`, `storage-stress`), for tests
/// that run them as child processes.
package enum BuiltProduct {
    /// The executable named `name`, or `nil` with the folders searched, for the failure message.
    package static func locate(_ name: String) -> (url: URL?, searched: [URL]) {
        let folders = candidateFolders()
        let found = folders.lazy
            .map { $0.appending(path: name, directoryHint: .notDirectory) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path(percentEncoded: false)) }
        return (found, folders)
    }

    /// A message for a product that was not found: where it was looked for and how to build it.
    package static func notFoundMessage(_ name: String, searched: [URL]) -> String {
        "\(name) was not found next to the test bundle (searched: "
            + searched.map { $0.path(percentEncoded: false) }.joined(separator: ", ")
            + "). Build it first: swift build --build-tests."
    }

    /// Folders where SwiftPM puts the products built beside this test bundle.
    private static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(filePath: first).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            folders.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders
    }
}

extension BuiltProduct {
    /// Starts `copies` processes of `executable` with the same arguments, all before waiting for
    /// any, then waits for each to exit, at most ``StartedChild/exitDeadline`` in all (a blocking
    /// wait: call it off the cooperative pool). A process still running then is killed and
    /// counts as failed.
    ///
    /// - Returns: For each process, whether it exited normally with status 0.
    package static func runSimultaneously(_ executable: URL, arguments: [String], copies: Int) throws -> [Bool] {
        let processes = (0..<copies).map { _ in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            return process
        }
        return try runSimultaneously(processes).map { $0 == 0 }
    }

    /// Starts every one of `processes`, all before waiting for any, then waits for each to exit,
    /// at most ``StartedChild/exitDeadline`` in all (a blocking wait: call it off the cooperative
    /// pool). A process still running then is killed.
    ///
    /// - Returns: For each process, its exit status; `nil` for one that was killed or did not
    ///   exit normally.
    package static func runSimultaneously(_ processes: [Process]) throws -> [Int32?] {
        var started: [Process] = []
        defer { for process in started { process.endNow() } }  // none left behind on a throw
        for process in processes {
            try process.run()
            started.append(process)
        }
        let deadline = ContinuousClock.now.advanced(by: StartedChild.exitDeadline)
        return processes.map { process in
            guard process.waitForExit(within: max(deadline - ContinuousClock.now, .zero)) else { return nil }
            return process.terminationReason == .exit ? process.terminationStatus : nil
        }
    }
}
