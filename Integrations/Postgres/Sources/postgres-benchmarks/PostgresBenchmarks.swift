import Foundation
import Logging
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Synchronization

/// What a store on PostgreSQL costs beside the bare statements a developer would write by hand.
///
///     postgres-benchmarks update --url URL [--count N]        one process: an update's latency and round trips
///     postgres-benchmarks contended --url URL [--seconds S]   3 processes incrementing one counter
///     postgres-benchmarks follow --url URL [--count N]        how soon another process sees a change
@main
enum PostgresBenchmarks {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String, default value: Int) -> Int {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]),
                (1...1_000_000).contains(number)
            else { return value }
            arguments.removeSubrange(index...(index + 1))
            return number
        }
        let url: String
        if let index = arguments.firstIndex(of: "--url"), index + 1 < arguments.count {
            url = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        } else if let fromEnvironment = ProcessInfo.processInfo.environment["SINGLETON_STORES_POSTGRES_URL"] {
            url = fromEnvironment
        } else {
            print("usage: postgres-benchmarks update|contended|follow --url postgres://… [--count N] [--seconds S]")
            exit(64)
        }
        let count = option("--count", default: 500)
        let seconds = option("--seconds", default: 5)
        do {
            switch arguments.first {
            case "update": try await UpdateLatency(url: url, count: count).run()
            case "contended": try await Contended(url: url, seconds: seconds).run()
            case "contended-worker":
                try await Contended.worker(url: url, kind: arguments[1], table: arguments[2], seconds: seconds)
            case "follow": try await Follow(url: url, count: count).run()
            case "follow-worker": try await Follow.worker(url: url, kind: arguments[1], table: arguments[2])
            default:
                print("usage: postgres-benchmarks update|contended|follow --url postgres://… [--count N] [--seconds S]")
                exit(64)
            }
        } catch {
            FileHandle.standardError.write(Data("postgres-benchmarks: \(error)\n".utf8))
            exit(1)
        }
        exit(0)
    }
}

/// A bare PostgresNIO client on the same database, and the storage, both running while `body` runs.
func withClients<R>(
    url: String, table: String, _ body: (PostgresClient, PostgresStorage) async throws -> R
) async throws -> R {
    let storage = try PostgresStorage(url: url, options: .init(table: table))
    guard let components = URLComponents(string: url), let host = components.host else { throw BenchmarkError("bad URL") }
    let configuration = PostgresClient.Configuration(
        host: host, port: components.port ?? 5432, username: components.user ?? "", password: components.password,
        database: String(components.path.dropFirst()), tls: .disable)
    let client = PostgresClient(configuration: configuration)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await storage.run() }
        group.addTask { await client.run() }
        let result = try await body(client, storage)
        group.cancelAll()
        return result
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .zero }
    let rank = max(1, Int((Double(sorted.count) * fraction).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

func microseconds(_ duration: Duration) -> String {
    let value = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    return String(format: "%.0f µs", value)
}

func ratio(_ a: Duration, _ b: Duration) -> String {
    let x = Double(a.components.seconds) + Double(a.components.attoseconds) / 1e18
    let y = Double(b.components.seconds) + Double(b.components.attoseconds) / 1e18
    return y > 0 ? String(format: "%.2f×", x / y) : "—"
}

/// A line on standard output, written at once (not buffered): another process times it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func freshTable(_ prefix: String) -> String { prefix + "_" + UUID().uuidString.prefix(8).lowercased() }

/// The counter the bare statements increment: one row of `TABLE_bare`.
func makeBareCounter(_ client: PostgresClient, table: String) async throws {
    _ = try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table)_bare (id int PRIMARY KEY, n bigint NOT NULL)"))
    _ = try await client.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table)_bare VALUES (1, 0)"))
}

/// One process: `ValueStore`-style update on the storage against `UPDATE … SET n = n + 1`.
struct UpdateLatency {
    let url: String
    let count: Int

    func run() async throws {
        let table = freshTable("bench_update")
        try await withClients(url: url, table: table) { client, storage in
            try await makeBareCounter(client, table: table)
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
            let clock = ContinuousClock()
            var ours: [Duration] = []
            var bare: [Duration] = []
            var select: [Duration] = []
            var statement: [Duration] = []
            var trips = 0
            let lockKey = SQL.lockKey(table: table, key: "by-hand")
            // Interleaved, so that both see the same machine.
            for round in 0..<(count + 20) {
                let before = storage.roundTrips.total
                let start = clock.now
                try await counter.update { $0 += 1 }
                let mine = clock.now - start
                let tripsNow = storage.roundTrips.total - before
                let bareStart = clock.now
                _ = try await client.query(PostgresQuery(unsafeSQL: "UPDATE \(table)_bare SET n = n + 1 WHERE id = 1")).collect()
                let theirs = clock.now - bareStart
                let selectStart = clock.now
                _ = try await client.query("SELECT 1").collect()
                let one = clock.now - selectStart
                // The storage's own statement, sent by hand with the document it expects.
                let document = Data(#"{"value":1}"#.utf8)
                let statementStart = clock.now
                _ = try await client.query(
                    SQL.writeIf(
                        table: table, lockKey: lockKey, key: "by-hand", expected: round == 0 ? nil : document, changes: true,
                        bytes: document, keptKey: nil, backup: nil, commit: UUID(), notification: "bench by-hand",
                        holdMilliseconds: 5000)
                ).collect()
                let sent = clock.now - statementStart
                if round >= 20 {
                    ours.append(mine)
                    bare.append(theirs)
                    select.append(one)
                    statement.append(sent)
                    trips += tripsNow
                }
            }
            let p50 = (percentile(ours, 0.5), percentile(bare, 0.5))
            let p99 = (percentile(ours, 0.99), percentile(bare, 0.99))
            print("update, one process, \(count) each (after 20 to warm up), interleaved:")
            print(
                "  store update: \(Double(trips) / Double(count)) round trips, p50 \(microseconds(p50.0)), p99 \(microseconds(p99.0))"
            )
            print("  bare UPDATE … SET n = n + 1: 1 round trip, p50 \(microseconds(p50.1)), p99 \(microseconds(p99.1))")
            print("  ratio: p50 \(ratio(p50.0, p50.1)), p99 \(ratio(p99.0, p99.1))")
            print(
                "  a round trip that commits nothing (SELECT 1): p50 \(microseconds(percentile(select, 0.5))), "
                    + "p99 \(microseconds(percentile(select, 0.99)))")
            print(
                "  the storage's statement sent by hand (no store, no storage): p50 \(microseconds(percentile(statement, 0.5))), "
                    + "p99 \(microseconds(percentile(statement, 0.99)))")
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)_bare, \(table)"))
        }
    }
}

/// Three processes increment one counter for a few seconds: through the store, bare, then by hand.
///
/// The bare statement decides on the server (`n = n + 1`), so the row is held only while the
/// server runs it. A store's update runs its body in the client, so the key is held across a round
/// trip to the process that decides. "By hand" is what a developer writes on PostgresNIO for a change
/// decided in the client: `BEGIN`, `SELECT … FOR UPDATE`, `UPDATE`, `COMMIT`, each a round trip (a
/// connection sends its next statement once the last is answered), the row held across three of
/// them.
struct Contended {
    let url: String
    let seconds: Int

    func run() async throws {
        let table = freshTable("bench_contended")
        try await withClients(url: url, table: table) { client, _ in
            try await makeBareCounter(client, table: table)
            var rates: [String: Double] = [:]
            for kind in ["store", "bare", "by-hand"] {
                let processes = try (0..<3).map { _ in
                    let process = Process()
                    process.executableURL = URL(filePath: CommandLine.arguments[0])
                    process.arguments = ["contended-worker", kind, table, "--url", url, "--seconds", "\(seconds)"]
                    let pipe = Pipe()
                    process.standardOutput = pipe
                    try process.run()
                    return (process, pipe)
                }
                var total = 0
                for (process, pipe) in processes {
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    total += Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                }
                rates[kind] = Double(total) / Double(seconds)
            }
            let store = rates["store"] ?? 0
            let bare = rates["bare"] ?? 0
            let byHand = rates["by-hand"] ?? 0
            print("contended increments, 3 processes × \(seconds) s on one counter:")
            print(
                String(
                    format: "  store update: %.0f/s; bare UPDATE: %.0f/s; ratio %.2f×", store, bare, bare > 0 ? store / bare : 0))
            print(
                String(
                    format: "  by hand (BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT): %.0f/s; %.2f× bare; the store %.2f× it",
                    byHand, bare > 0 ? byHand / bare : 0, byHand > 0 ? store / byHand : 0))
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)_bare, \(table)"))
        }
    }

    static func worker(url: String, kind: String, table: String, seconds: Int) async throws {
        try await withClients(url: url, table: table) { client, storage in
            let end = ContinuousClock.now + .seconds(seconds)
            if kind == "by-hand" {
                let done = try await client.withConnection { connection in
                    try await Self.byHand(on: connection, table: table, until: end)
                }
                say("\(done)")
                return
            }
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
            var done = 0
            while ContinuousClock.now < end {
                if kind == "store" {
                    try await counter.update { $0 += 1 }
                } else {
                    _ = try await client.query(PostgresQuery(unsafeSQL: "UPDATE \(table)_bare SET n = n + 1 WHERE id = 1"))
                        .collect()
                }
                done += 1
            }
            say("\(done)")
        }
    }

    /// Increments decided in the client until `end`, each in a transaction that holds the row:
    /// how many were committed.
    static func byHand(on connection: PostgresConnection, table: String, until end: ContinuousClock.Instant) async throws -> Int {
        var done = 0
        while ContinuousClock.now < end {
            _ = try await connection.query(PostgresQuery(unsafeSQL: "BEGIN"), logger: connection.logger).get()
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT n FROM \(table)_bare WHERE id = 1 FOR UPDATE"), logger: connection.logger
            ).get().rows
            guard let row = rows.first else { throw BenchmarkError("the counter's row is missing") }
            let n = try row.decode(Int64.self)
            var binds = PostgresBindings()
            binds.append(n + 1)
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "UPDATE \(table)_bare SET n = $1 WHERE id = 1", binds: binds), logger: connection.logger
            ).get()
            _ = try await connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: connection.logger).get()
            done += 1
        }
        return done
    }
}

/// How soon another process has a change: a store that follows the key against a bare LISTEN.
struct Follow {
    let url: String
    let count: Int

    func run() async throws {
        let table = freshTable("bench_follow")
        try await withClients(url: url, table: table) { client, storage in
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
            // What a developer writes by hand to share a value durably: the row changed and the
            // value sent in the same commit.
            _ = try await client.query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table)_bare (k text PRIMARY KEY, n bigint NOT NULL)"))
            _ = try await client.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table)_bare VALUES ('counter', 0)"))
            let clock = ContinuousClock()
            var results: [String: [Duration]] = [:]
            for kind in ["store", "bare", "bare-update"] {
                let workerKind = kind == "store" ? "store" : "bare"
                let process = Process()
                process.executableURL = URL(filePath: CommandLine.arguments[0])
                process.arguments = ["follow-worker", workerKind, table, "--url", url]
                let pipe = Pipe()
                process.standardOutput = pipe
                // Each line with the time it was read: a change is timed to when the other process
                // had it, whether or not the call that made it has returned by then.
                let lines = AsyncStream<(line: String, at: ContinuousClock.Instant)>.makeStream()
                let partial = Mutex("")
                try process.run()
                // Read with blocking reads on a thread of its own, not with `readabilityHandler`,
                // whose dispatch source can crash the process on Linux when it is torn down
                // (swift-corelibs-libdispatch issue 949).
                let handle = pipe.fileHandleForReading
                Thread {
                    while true {
                        let data = handle.availableData
                        if data.isEmpty {
                            lines.continuation.finish()
                            return
                        }
                        let complete = partial.withLock { partial -> [String] in
                            partial += String(decoding: data, as: UTF8.self)
                            var parts = partial.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                            partial = parts.removeLast()
                            return parts
                        }
                        let now = ContinuousClock.now
                        complete.forEach { lines.continuation.yield(($0, now)) }
                    }
                }.start()
                var iterator = lines.stream.makeAsyncIterator()
                guard await iterator.next()?.line == "ready" else { throw BenchmarkError("the follower did not start") }
                try await Task.sleep(for: .milliseconds(300))
                var delays: [Duration] = []
                for round in 0..<(count + 10) {
                    let start = clock.now
                    if kind == "store" {
                        try await counter.update { $0 += 1 }
                    } else if kind == "bare-update" {
                        var binds = PostgresBindings()
                        binds.append("bare_\(table)")
                        let sql = """
                            WITH changed AS (UPDATE \(table)_bare SET n = n + 1 WHERE k = 'counter' RETURNING n)
                            SELECT pg_notify($1, (SELECT n::text FROM changed))
                            """
                        _ = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds)).collect()
                    } else {
                        var binds = PostgresBindings()
                        binds.append("bare_\(table)")
                        binds.append("\(round)")
                        _ = try await client.query(PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: binds)).collect()
                    }
                    guard let heard = await iterator.next() else { throw BenchmarkError("the follower ended") }
                    if round >= 10 { delays.append(heard.at - start) }
                }
                process.terminate()
                results[kind] = delays
            }
            let store = results["store"] ?? []
            let bare = results["bare"] ?? []
            let bareUpdate = results["bare-update"] ?? []
            print(
                "follow, another process, \(count) changes each (after 10 to warm up), from the call that changes to the other process's line, as the line is read:"
            )
            print(
                "  store (update, NOTIFY with the document in its commit, taken in by the follower): p50 \(microseconds(percentile(store, 0.5))), p99 \(microseconds(percentile(store, 0.99)))"
            )
            print(
                "  bare NOTIFY → LISTEN: p50 \(microseconds(percentile(bare, 0.5))), p99 \(microseconds(percentile(bare, 0.99)))")
            print(
                "  ratio: p50 \(ratio(percentile(store, 0.5), percentile(bare, 0.5))), p99 \(ratio(percentile(store, 0.99), percentile(bare, 0.99)))"
            )
            print(
                "  bare UPDATE and NOTIFY of the new value in one commit → LISTEN: p50 \(microseconds(percentile(bareUpdate, 0.5))), p99 \(microseconds(percentile(bareUpdate, 0.99)))"
            )
            print(
                "  ratio to it: p50 \(ratio(percentile(store, 0.5), percentile(bareUpdate, 0.5))), p99 \(ratio(percentile(store, 0.99), percentile(bareUpdate, 0.99)))"
            )
            print(
                "  the UPDATE and NOTIFY by hand against the bare NOTIFY (what a durable change adds before anyone hears of it): p50 \(ratio(percentile(bareUpdate, 0.5), percentile(bare, 0.5))), p99 \(ratio(percentile(bareUpdate, 0.99), percentile(bare, 0.99)))"
            )
            _ = try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table), \(table)_bare"))
        }
    }

    static func worker(url: String, kind: String, table: String) async throws {
        try await withClients(url: url, table: table) { client, storage in
            if kind == "store" {
                let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage)
                let changes = counter.changes(buffering: .unbounded)
                try await Task.sleep(for: .milliseconds(200))
                say("ready")
                for await change in changes {
                    say("\(change.new)")
                }
            } else {
                try await client.withConnection { connection in
                    try await connection.listen(on: "bare_\(table)") { notifications in
                        say("ready")
                        for try await notification in notifications {
                            say(notification.payload)
                        }
                    }
                }
            }
        }
    }
}
