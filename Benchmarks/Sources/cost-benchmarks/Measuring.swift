import Foundation
import SingletonStores
import StoreObservation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The document's key in its folder (`profile.json`).
let profileKey = "profile"

/// Nanoseconds on the system-wide monotonic clock: comparable between processes.
func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Wall-clock nanoseconds per operation of `body` run `count` times.
func nanosecondsPerOperation(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    for _ in 0..<count { try body() }
    return Double(monotonicNanoseconds() - start) / Double(Swift.max(count, 1))
}

/// This process's CPU time and voluntary context switches so far.
struct ResourceUsage {
    var cpuMilliseconds: Double
    var voluntarySwitches: Int

    static var now: ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
        return ResourceUsage(
            cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
            voluntarySwitches: Int(usage.ru_nvcsw))
    }

    static func - (later: ResourceUsage, earlier: ResourceUsage) -> ResourceUsage {
        ResourceUsage(
            cpuMilliseconds: later.cpuMilliseconds - earlier.cpuMilliseconds,
            voluntarySwitches: later.voluntarySwitches - earlier.voluntarySwitches)
    }
}

/// A new empty folder under the temporary directory.
func makeFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "cost-benchmarks-\(getpid())-\(name)-\(UUID().uuidString.prefix(8))", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder
}

/// Writes `line` and a newline to standard output at once (children talk to the parent so).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes `message` to standard error.
func note(_ message: String) {
    FileHandle.standardError.write(Data(("cost-benchmarks: " + message + "\n").utf8))
}

/// A copy of this program run in another role, with its standard output read line by line.
final class Child {
    private let process = Process()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Starts `cost-benchmarks child <arguments>`.
    init(_ arguments: [String]) throws {
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["child"] + arguments
        process.standardOutput = output
        try process.run()
    }

    /// The next line, or `nil` if none comes within `milliseconds` or the child closed its output.
    func nextLine(within milliseconds: Int32) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = monotonicNanoseconds() + Int64(milliseconds) * 1_000_000
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let left = Int32(clamping: (deadline - monotonicNanoseconds()) / 1_000_000)
            guard left > 0 else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, left) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// Stops the child and waits for it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
