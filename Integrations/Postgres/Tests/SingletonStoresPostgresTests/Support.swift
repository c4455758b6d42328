import Foundation
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Synchronization
import Testing

/// The PostgreSQL server the tests use: the one `SINGLETON_STORES_POSTGRES_URL` names (`.ci/run`
/// starts a throwaway one), each test in a table of its own.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SINGLETON_STORES_POSTGRES_URL"]
    static var isAvailable: Bool { url != nil }
    static let skipReason: Comment = "set SINGLETON_STORES_POSTGRES_URL (scripts/postgres-server.sh start FOLDER prints one)"

    /// A table name no other test uses.
    static func freshTable() -> String {
        "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The password in the URL, which no output may show.
    static var password: String? {
        url.flatMap { URLComponents(string: $0)?.password }
    }
}

/// Storages that run while `body` runs, shut down after it.
func withRunningStorages<R>(
    count: Int = 1, url: String? = TestDatabase.url, options: PostgresStorage.Options,
    _ body: ([PostgresStorage]) async throws -> R
) async throws -> R {
    let storages = try (0..<count).map { _ in try PostgresStorage(url: url ?? "", options: options) }
    let runs = storages.map { storage in Task { await storage.run() } }
    defer { runs.forEach { $0.cancel() } }
    let result = try await body(storages)
    runs.forEach { $0.cancel() }
    for run in runs { await run.value }
    return result
}

/// A raw PostgresNIO client on the test server, for what the tests do behind the storage's back.
func withRawConnection<R>(url: String? = TestDatabase.url, _ body: (PostgresConnection) async throws -> R) async throws -> R {
    guard let url, let components = URLComponents(string: url), let host = components.host else {
        throw TestFailure("no SINGLETON_STORES_POSTGRES_URL")
    }
    let configuration = PostgresConnection.Configuration(
        host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
        database: String(components.path.dropFirst()), tls: .disable)
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "test"))
    do {
        let result = try await body(connection)
        try await connection.close()
        return result
    } catch {
        try? await connection.close()
        throw error
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `demo-postgres` executable built beside the test bundle.
enum Demo {
    static var executable: URL {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first { folders.append(URL(filePath: first).deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        return folders.map { $0.appending(path: "demo-postgres") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? URL(filePath: "demo-postgres")
    }

    struct Finished: CustomStringConvertible {
        let status: Int32
        let output: String
        let errors: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
        var description: String { "exit \(status)\nstdout:\n\(output)\nstderr:\n\(errors)" }
    }

    /// Runs `demo-postgres arguments` to its end, without holding a thread while it runs.
    static func run(_ arguments: [String], url: String? = TestDatabase.url, table: String) async throws -> Finished {
        let running = try Running(arguments, url: url, table: table)
        return await running.finished()
    }

    /// A `demo-postgres` that runs meanwhile: its lines as they come, each with when it came.
    final class Running: Sendable {
        let process: Process
        let lines: AsyncStream<(line: String, at: ContinuousClock.Instant)>
        private let output = Shared<(text: String, partial: String)>(("", ""))
        private let errors = Shared<String>("")
        private let ended: AsyncStream<Int32>

        init(_ arguments: [String], url: String?, table: String) throws {
            let process = Process()
            process.executableURL = Demo.executable
            process.arguments = arguments + ["--table", table]
            var environment = ProcessInfo.processInfo.environment
            environment["SINGLETON_STORES_POSTGRES_URL"] = url
            process.environment = environment
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let lineStream = AsyncStream<(line: String, at: ContinuousClock.Instant)>.makeStream()
            let endStream = AsyncStream<Int32>.makeStream()
            lines = lineStream.stream
            ended = endStream.stream
            self.process = process
            let output = output
            let errors = errors
            let group = DispatchGroup()
            group.enter()
            group.enter()
            process.terminationHandler = { process in
                let status = process.terminationStatus
                // Its output to the end, but not waiting more than 2 s for the pipes to close: a
                // process started by another test at the same moment may hold them open as well.
                DispatchQueue.global().async {
                    _ = group.wait(timeout: .now() + 2)
                    endStream.continuation.yield(status)
                    endStream.continuation.finish()
                }
            }
            try process.run()
            // Each pipe is read by a thread of its own with blocking reads, not with
            // `readabilityHandler`: on Linux, tearing down the dispatch read source that handler
            // installs can race libdispatch's own bookkeeping and crash the test process in
            // `_dispatch_event_loop_drain` (swift-corelibs-libdispatch issue 949).
            readToEnd(out.fileHandleForReading) { data in
                let now = ContinuousClock.now
                guard let data else {
                    lineStream.continuation.finish()
                    group.leave()
                    return
                }
                let complete = output.withLock { state -> [String] in
                    state.text += String(decoding: data, as: UTF8.self)
                    state.partial += String(decoding: data, as: UTF8.self)
                    var lines = state.partial.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    state.partial = lines.removeLast()
                    return lines
                }
                complete.forEach { lineStream.continuation.yield(($0, now)) }
            }
            readToEnd(err.fileHandleForReading) { data in
                guard let data else {
                    group.leave()
                    return
                }
                errors.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }

        func interrupt() { process.interrupt() }

        func finished() async -> Finished {
            var status: Int32 = -1
            for await code in ended { status = code }
            return Finished(status: status, output: output.withLock { $0.text }, errors: errors.withLock { $0 })
        }

        /// Waits for a line that `matches`, up to `limit`; `nil` when none came.
        func line(within limit: Duration = .seconds(30), where matches: @escaping @Sendable (String) -> Bool) async
            -> (line: String, at: ContinuousClock.Instant)?
        {
            await withTaskGroup(of: (line: String, at: ContinuousClock.Instant)?.self) { group in
                let lines = lines
                group.addTask {
                    for await entry in lines where matches(entry.line) { return entry }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }
}

/// A PostgreSQL server of a test's own, for the tests that restart it: started by
/// scripts/postgres-server.sh in a temporary folder, stopped at the end.
struct OwnServer {
    let folder: URL
    let url: String

    static var script: URL {
        URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../../scripts/postgres-server.sh")
            .standardized
    }

    static func start() async throws -> OwnServer {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ss-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let server = folder.appending(path: "server")
        let started = try await Self.script(["start", server.path])
        guard started.status == 0, let url = started.output.split(separator: "\n").last.map(String.init) else {
            throw TestFailure("the test's own server did not start: \(started)")
        }
        return OwnServer(folder: folder, url: url)
    }

    func restart() async throws {
        let restarted = try await Self.script(["restart", folder.appending(path: "server").path])
        guard restarted.status == 0 else { throw TestFailure("the server did not restart: \(restarted)") }
    }

    func stop() async {
        _ = try? await Self.script(["stop", folder.appending(path: "server").path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the server script; its output goes to files, not pipes, since the server it starts
    /// may keep the descriptors it was given open for as long as it runs.
    static func script(_ arguments: [String]) async throws -> Demo.Finished {
        let logs = FileManager.default.temporaryDirectory.appending(path: "ss-pg-script-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        let outURL = logs.appending(path: "out")
        let errURL = logs.appending(path: "err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(filePath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus) }
        try process.run()
        var status: Int32 = -1
        for await code in ended.stream {
            status = code
            break
        }
        try? out.close()
        try? err.close()
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Demo.Finished(status: status, output: output, errors: errors)
    }
}

/// Runs `body` with a PostgreSQL server of its own, stopped (and its folder removed) after it,
/// whether it returned or threw.
func withOwnServer<R>(_ body: (OwnServer) async throws -> R) async throws -> R {
    let server = try await OwnServer.start()
    let result: R
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}

extension OwnServer {
    /// Runs each statement with psql on the server `url` names, in order.
    static func psql(_ url: String, _ statements: [String]) async throws {
        for statement in statements { try await psql(url, statement) }
    }

    /// Runs one statement with psql on the server `url` names.
    static func psql(_ url: String, _ statement: String) async throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["psql", url.replacingOccurrences(of: "?sslmode=disable", with: ""), "-qAt", "-c", statement]
        process.standardOutput = FileHandle.nullDevice
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus) }
        try process.run()
        for await status in ended.stream {
            guard status == 0 else { throw TestFailure("psql exited \(status)") }
            return
        }
    }
}

/// A value behind a lock, shared by reference.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

/// Reads `handle` on a thread of its own, with blocking reads, until its end: `received` gets
/// each read's bytes, then `nil` once. Unlike `readabilityHandler` it installs no dispatch source
/// (see `Demo.Running`). The handle is closed at its end: Foundation keeps a `Process` that no one
/// waited for with `waitUntilExit` alive, and its pipes with it, and a test that starts hundreds
/// of processes would keep two descriptors of each open.
func readToEnd(_ handle: FileHandle, _ received: @escaping @Sendable (Data?) -> Void) {
    Thread {
        while true {
            let data = handle.availableData
            if data.isEmpty {
                try? handle.close()
                received(nil)
                return
            }
            received(data)
        }
    }.start()
}
