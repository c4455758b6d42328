import Foundation
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Synchronization
import Testing

/// A write made after taking the key and reading the row lets its key go, and its notification
/// leave, as soon as its commit is visible, and answers only once the commit is on disk (and on
/// the synchronous replicas the server waits for); a write on a guess commits the ordinary way.
/// Each test runs on a server of its own, whose settings it changes.
@Suite(.enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason))
struct FlushTests {
    let table = TestDatabase.freshTable()

    /// A count, padded (for the locked way) beyond what a storage remembers of a row: every
    /// update of it takes the key and reads the row first.
    struct Padded: Codable, Sendable, Equatable {
        var count: Int
        var padding: String
        static func starting(at count: Int, locked: Bool) -> Padded {
            Padded(count: count, padding: locked ? String(repeating: "x", count: 70_000) : "")
        }
    }

    /// The write-ahead log flushed by the server's own writer only every 10 s (its longest delay),
    /// and the server stopped at once (no checkpoint, no goodbye) right after the last answer:
    /// every update that was answered is there after the restart, whichever way it was written.
    /// Were an answer given before the flush, the last updates would be lost.
    @Test(arguments: [false, true]) func everyAnsweredUpdateSurvivesAnImmediateStop(locked: Bool) async throws {
        try await withOwnServer { server in
            try await OwnServer.psql(server.url, ["ALTER SYSTEM SET wal_writer_delay = '10s'", "SELECT pg_reload_conf()"])
            let options = PostgresStorage.Options(table: table)
            try await withRunningStorages(url: server.url, options: options) { storages in
                let counter = try await SharedValueStore(
                    key: "counter", default: Padded.starting(at: 0, locked: locked), storage: storages[0], follows: false)
                for _ in 0..<40 { try await counter.update { $0.count += 1 } }
                #expect(counter.value.count == 40)
                #expect(storages[0].roundTrips.lastCommit == (locked ? 2 : 1), "not the way under test")
                try await server.restart()
            }
            try await withRunningStorages(url: server.url, options: options) { storages in
                let stored = try await storages[0].read("counter")
                let text = stored.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "no row"
                #expect(text.contains("\"count\" : 40"), "after the restart: \(text.prefix(200))")
            }
        }
    }

    /// A synchronous replica that never answers: every commit that waits for the disk waits for
    /// it too. A writer's update (which takes the key and reads first) does not return, but its
    /// key is let go and its change is seen — read by another storage, heard by a follower, and
    /// decided on by another writer, whose own update waits in turn. Once the server stops
    /// waiting for the replica, both return, and the row holds both changes.
    @Test func aKeyGoesBeforeTheFlushAndTheAnswerAfterIt() async throws {
        try await withOwnServer { server in
            let options = PostgresStorage.Options(table: table, reachTimeout: .seconds(60))
            try await withRunningStorages(count: 3, url: server.url, options: options) { storages in
                let start = Padded.starting(at: 0, locked: true)
                let first = try await SharedValueStore(key: "counter", default: start, storage: storages[0], follows: false)
                let second = try await SharedValueStore(key: "counter", default: start, storage: storages[1], follows: false)
                let follower = try await SharedValueStore(key: "counter", default: start, storage: storages[2])
                try await first.set(Padded.starting(at: 1, locked: true))
                try await waitUntil { follower.value.count == 1 }
                let probe = try await FlushTests.stallCommits(of: server, probing: storages[2])
                let firstDone = Mutex(false)
                let firstUpdate = Task {
                    let result = try await first.update { (value: inout Padded) -> Int in
                        value.count += 10
                        return value.count
                    }
                    firstDone.withLock { $0 = true }
                    return result
                }
                // Seen before it is on the replica: by a follower and by a plain read.
                try await waitUntil { follower.value.count == 11 }
                let read = try await storages[1].read("counter")
                #expect(read.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"count\" : 11") == true)
                // Another writer takes the key and decides on it; its answer waits as well.
                let secondUpdate = Task {
                    try await second.update { (value: inout Padded) -> Int in
                        value.count += 100
                        return value.count
                    }
                }
                try await waitUntil { follower.value.count == 111 }
                #expect(firstDone.withLock { $0 } == false, "an update answered before its commit reached the replica")
                try await OwnServer.psql(server.url, FlushTests.noReplica)
                #expect(try await firstUpdate.value == 11)
                #expect(try await secondUpdate.value == 111)
                try await probe.value
            }
        }
    }

    /// A writer cut off while its commit waits for the disk (here, for a synchronous replica that
    /// does not answer: the server ends its session) finds its commit by its id, waiting for the
    /// replica as it does, and reports the update done once, its body run once.
    @Test func aWriterCutOffWhileItsCommitWaitsForTheDiskFindsItByItsID() async throws {
        try await withOwnServer { server in
            let options = PostgresStorage.Options(table: table, reachTimeout: .seconds(60))
            try await withRunningStorages(count: 2, url: server.url, options: options) { storages in
                let start = Padded.starting(at: 0, locked: true)
                let writer = try await SharedValueStore(key: "wallet", default: start, storage: storages[0], follows: false)
                let follower = try await SharedValueStore(key: "wallet", default: start, storage: storages[1])
                try await writer.set(Padded.starting(at: 100, locked: true))
                try await waitUntil { follower.value.count == 100 }
                let probe = try await FlushTests.stallCommits(of: server, probing: storages[1])
                let runs = Mutex(0)
                let answered = Mutex(false)
                let spend = Task {
                    let left = try await writer.update { (balance: inout Padded) -> Int in
                        runs.withLock { $0 += 1 }
                        balance.count -= 30
                        return balance.count
                    }
                    answered.withLock { $0 = true }
                    return left
                }
                try await waitUntil { follower.value.count == 70 }
                let terminated = try await FlushTests.waitingForTheReplica(
                    on: server, running: "\(table)_write_v8", terminating: true)
                #expect(terminated >= 1, "no writer was waiting for the replica")
                // The writer's lookup finds its commit, and waits for the replica in turn before it
                // answers: the update is not done while the replica is silent.
                try await waitUntil {
                    try await FlushTests.waitingForTheReplica(on: server, running: "\(table)_lock_read_v9") >= 1
                }
                try await Task.sleep(for: .milliseconds(200))
                #expect(!answered.withLock { $0 }, "the update was done before its commit reached the replica")
                #expect(runs.withLock { $0 } == 1)
                try await OwnServer.psql(server.url, FlushTests.noReplica)
                #expect(try await spend.value == 70)
                try await probe.value
                #expect(runs.withLock { $0 } == 1, "the body ran again after its change was made")
                #expect(storages[0].roundTrips.lastCommit >= 3, "the commit was not looked for")
                let stored = try await storages[1].read("wallet")
                #expect(stored.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"count\" : 70") == true)
            }
        }
    }

    /// Makes every commit that waits for the disk wait for a synchronous replica that never
    /// answers, and returns once one does: a probe update of the key `probe` through `storage`,
    /// which returns once ``noReplica`` has been set. (The server starts to wait for the replica
    /// some time after the reload.)
    static func stallCommits(of server: OwnServer, probing storage: PostgresStorage) async throws -> Task<Void, any Error> {
        try await OwnServer.psql(server.url, replicaThatNeverAnswers)
        let probe = Task {
            _ = try await storage.transaction("probe", waits: true) { _ in
                DocumentDecision((), change: DocumentChange(bytes: Data(UUID().uuidString.utf8)))
            }
        }
        try await waitUntil { try await waitingForTheReplica(on: server) > 0 }
        return probe
    }

    /// The sessions of `server` whose commit waits for a synchronous replica, and whose statement
    /// holds `text` when one is given; ended by the server first when `terminating`.
    static func waitingForTheReplica(on server: OwnServer, running text: String? = nil, terminating: Bool = false)
        async throws -> Int
    {
        try await withRawConnection(url: server.url) { connection in
            var binds = PostgresBindings()
            binds.append(text.map { "%\($0)%" } ?? "%")
            let counted = terminating ? "pg_terminate_backend(pid)" : "*"
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT count(\(counted))::int FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query LIKE $1",
                    binds: binds),
                logger: connection.logger
            ).collect()
            return try rows.first?.decode(Int.self) ?? 0
        }
    }

    static let replicaThatNeverAnswers = [
        "ALTER SYSTEM SET synchronous_standby_names = 'a_replica_that_never_answers'", "SELECT pg_reload_conf()",
    ]
    static let noReplica = ["ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()"]

    /// A write whose change committed but whose wait for the disk then failed (here: the right to
    /// write the record it waits with taken away between its statements) is never reported as
    /// refused: the storage looks for its commit, and reports the outcome unknown while it cannot
    /// confirm it. A user without that right is told at set-up which grant it needs.
    @Test func aWriteWhoseFlushFailsAfterItCommittedIsNeverReportedAsRefused() async throws {
        try await withOwnServer { server in
            guard var components = URLComponents(string: server.url) else { throw TestFailure("no URL") }
            let role = "app_\(UUID().uuidString.prefix(8).lowercased())"
            let password = "pw-\(UUID().uuidString.prefix(8))"
            try await withRunningStorages(url: server.url, options: .init(table: table)) { storages in
                _ = try await storages[0].transaction("counter", waits: true) { _ in
                    DocumentDecision((), change: DocumentChange(bytes: Data("0".utf8)))
                }
            }
            try await OwnServer.psql(
                server.url,
                [
                    "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'",
                    "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table), \(table)_commits TO \(role)",
                    "GRANT USAGE ON SEQUENCE \(table)_versions TO \(role)",
                ])
            components.user = role
            components.password = password
            let options = PostgresStorage.Options(table: table, reachTimeout: .seconds(2))
            try await withRunningStorages(url: components.string, options: options) { storages in
                let counter = try await SharedValueStore(
                    key: "counter", default: Padded.starting(at: 0, locked: true), storage: storages[0], follows: false)
                try await counter.update { $0.count += 1 }
                try await OwnServer.psql(
                    server.url, "REVOKE EXECUTE ON FUNCTION pg_logical_emit_message(boolean, text, text) FROM PUBLIC")
                do throws(StorageError) {
                    try await counter.update { $0.count += 1 }
                    Issue.record("the update said it was done")
                } catch {
                    guard case .commitOutcomeUnknown = error else {
                        Issue.record("expected the outcome to be unknown, got: \(error)")
                        return
                    }
                }
            }
            try await withRunningStorages(url: server.url, options: .init(table: table)) { storages in
                let stored = try await storages[0].read("counter")
                #expect(
                    stored.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"count\" : 2") == true,
                    "the change was committed")
            }
            // Set-up, for a user without the right: told what to grant.
            _ = try await withRunningStorages(url: components.string, options: .init(table: table)) { storages in
                await #expect {
                    _ = try await SharedValueStore(
                        key: "counter", default: Padded.starting(at: 0, locked: true), storage: storages[0])
                } throws: { error in
                    guard case .backendUnreachable(_, let reason)? = error as? StorageError else { return false }
                    return reason.contains("GRANT EXECUTE ON FUNCTION pg_logical_emit_message(boolean, text, text) TO \(role)")
                }
            }
        }
    }
}

/// Waits, by polling every 10 ms for at most 30 s, until `condition` holds.
func waitUntil(_ condition: () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let end = clock.now + .seconds(30)
    while try await !condition() {
        guard clock.now < end else { throw TestFailure("the condition did not come true within 30 s") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
