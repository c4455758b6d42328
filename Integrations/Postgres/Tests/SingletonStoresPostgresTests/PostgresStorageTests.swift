import Foundation
import NIOPosix
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import SingletonStoresTesting
import Synchronization
import Testing

@Suite(.enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason))
struct PostgresStorageTests {
    let table = TestDatabase.freshTable()
    var options: PostgresStorage.Options { .init(table: table, lockTimeout: .seconds(1), reachTimeout: .seconds(15)) }

    @Test func keepsEveryPromiseOfAStorage() async throws {
        var runs: [Task<Void, Never>] = []
        let options = options
        let failures = try await StorageConformance.check {
            let storage = try PostgresStorage(url: TestDatabase.url ?? "", options: options)
            runs.append(Task { await storage.run() })
            return storage
        }
        runs.forEach { $0.cancel() }
        #expect(failures.isEmpty)
    }

    /// An update decided on what the storage last saw of the row is one round trip: the server
    /// writes it only if the row still holds that. A read is one.
    @Test func anUpdateTakesOneRoundTripAndAReadOne() async throws {
        try await withRunningStorages(options: options) { storages in
            let storage = storages[0]
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
            for expected in 1...5 {
                let before = storage.roundTrips.total
                try await counter.update { $0 += 1 }
                #expect(storage.roundTrips.lastCommit == 1)
                #expect(storage.roundTrips.total - before == 1)
                #expect(counter.value == expected)
            }
            let before = storage.roundTrips.total
            _ = try await storage.read("counter")
            #expect(storage.roundTrips.total - before == 1)
        }
    }

    /// Another machine changed the row since this storage last saw it: the guess misses, the
    /// server hands back the row, and the body decides again on it — two round trips, and the
    /// change is made on what the row holds.
    @Test func aGuessThatMissesIsDecidedAgainOnTheRow() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let here = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            let there = try await SharedValueStore(key: "counter", default: 0, storage: storages[1], follows: false)
            try await there.set(40)
            let seen = Mutex<[Int]>([])
            try await here.update { (count: inout Int) in
                seen.withLock { $0.append(count) }
                count += 2
            }
            #expect(seen.withLock { $0 } == [0, 40], "decided on the guess, then on the row")
            #expect(here.value == 42)
            #expect(storages[0].roundTrips.lastCommit == 2)
            try await there.reload()
            #expect(there.value == 42)
        }
    }

    /// After a guess of a key missed — other writers are changing it — the next four updates of
    /// the key take its lock and read first (two round trips, no decision sent for nothing), and
    /// the one after guesses again: one round trip when no one else wrote meanwhile.
    @Test func afterAMissedGuessTheNextUpdatesTakeTheLockFirst() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let here = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            let there = try await SharedValueStore(key: "counter", default: 0, storage: storages[1], follows: false)
            try await here.update { $0 += 1 }
            #expect(storages[0].roundTrips.lastCommit == 1)
            try await there.update { $0 += 1 }
            let seen = Mutex<[Int]>([])
            try await here.update { (count: inout Int) in
                seen.withLock { $0.append(count) }
                count += 1
            }
            #expect(seen.withLock { $0 } == [1, 2], "decided on the guess, then on the row")
            #expect(storages[0].roundTrips.lastCommit == 2)
            var trips: [Int] = []
            for _ in 0..<5 {
                seen.withLock { $0 = [] }
                try await here.update { (count: inout Int) in
                    seen.withLock { $0.append(count) }
                    count += 1
                }
                #expect(seen.withLock { $0.count } == 1, "the body ran once, on the row")
                trips.append(storages[0].roundTrips.lastCommit)
            }
            #expect(trips == [2, 2, 2, 2, 1])
            #expect(here.value == 8)
        }
    }

    /// A refusal decided on a stale guess is not the answer: the server checks it against the
    /// row, and the body decides again on what is there. A spend allowed by a stale guess is
    /// refused by the row.
    @Test func noDecisionOnAStaleGuessStands() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let here = try await SharedValueStore(key: "wallet", default: 0, storage: storages[0], follows: false)
            let there = try await SharedValueStore(key: "wallet", default: 0, storage: storages[1], follows: false)
            // Here the wallet holds 0 as last seen; there it is topped up to 10.
            try await there.set(10)
            let spent = try await here.update { (balance: inout Int) -> Bool in
                guard balance >= 5 else { return false }
                balance -= 5
                return true
            }
            #expect(spent, "refused on the stale 0, then spent on the row's 10")
            #expect(here.value == 5)
            // Now there still believes 10; here it was spent down to 5. A spend of 8 there is refused.
            await #expect(throws: WalletTestError.self) {
                try await there.update { (balance: inout Int) throws(WalletTestError) in
                    guard balance >= 8 else { throw .short(balance) }
                    balance -= 8
                }
            }
            #expect(there.value == 5, "the store shows the row it was refused on")
            let stored = try await storages[0].read("wallet")
            #expect(stored.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"value\" : 5") == true)
        }
    }

    /// Another session holds the key until the end of this test: a read returns what the row
    /// holds all the same. A read that took the key's lock would wait for it, be cut off by the
    /// lock timeout and try again until its reach timeout, then throw.
    @Test func aReadDoesNotWaitForAWriterThatHoldsTheKey() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            try await counter.set(41)
            try await withRawConnection { connection in
                let lock = PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock($1)", binds: try Self.lockBinds(table, "counter"))
                _ = try await connection.query(lock, logger: connection.logger).collect()
                let bytes = try await storages[1].read("counter")
                #expect(bytes.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"value\" : 41") == true)
                // A writer that may not wait is turned away at once; one that waits gives up after the lock timeout.
                let turnedAway = try await storages[1].transaction("counter", waits: false) { _ in DocumentDecision(()) }
                #expect(turnedAway == nil)
                await #expect(throws: StorageError.self) {
                    _ = try await storages[1].transaction("counter", waits: true) { _ in DocumentDecision(()) }
                }
            }
        }
    }

    @Test func anErrorNamesTheServerAndNeverThePassword() async throws {
        let password = "pw-\(UUID().uuidString.prefix(6))"
        let storage = try PostgresStorage(
            url: "postgres://someone:\(password)@127.0.0.1:1/app?sslmode=disable",
            options: .init(table: table, reachTimeout: .seconds(2)))
        let run = Task { await storage.run() }
        defer { run.cancel() }
        #expect(!storage.description.contains(password))
        do {
            _ = try await SharedValueStore(key: "visits", default: 0, storage: storage)
            Issue.record("a store on a server that is down loaded")
        } catch {
            guard case .backendUnreachable(let backend, let reason) = error else {
                Issue.record("expected backendUnreachable, got \(error)")
                return
            }
            #expect(backend.contains("127.0.0.1:1"))
            #expect(reason.contains("refused"))
            #expect(!error.description.contains(password))
            #expect(!"\(error)".contains(password))
        }
        // A URL that can't be read is refused without repeating its password.
        #expect {
            _ = try PostgresStorage(url: "postgres://someone:\(password)@/app")
        } throws: { error in
            !"\(error)".contains(password) && "\(error)".contains("***")
        }
    }

    /// A statement the server refuses (here a trigger standing in for a database out of space)
    /// is reported as the server said it, about the row, with advice for a server: not a file's.
    @Test func aWriteTheServerRefusesNamesTheRowAndNotAFile() async throws {
        try await withRunningStorages(options: options) { storages in
            let visits = try await SharedValueStore(key: "visits", default: 0, storage: storages[0], follows: false)
            try await visits.update { $0 += 1 }
            try await withRawConnection { connection in
                for sql in [
                    """
                    CREATE FUNCTION \(table)_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'the quota of this database is used up' USING ERRCODE = '53100'; END $$
                    """,
                    "CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(table)_refuse()",
                ] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
                }
            }
            do {
                try await visits.update { $0 += 1 }
                Issue.record("a write the server refused went through")
            } catch let error as StorageError {
                guard case .writeFailed(let location, let reason) = error else {
                    Issue.record("expected writeFailed, got \(error)")
                    return
                }
                #expect(location.scheme == "postgres" && location.path.hasSuffix("/\(table)/visits"), "\(location)")
                #expect(reason.contains("the quota of this database is used up") && reason.contains("53100"), "\(reason)")
                let message = error.description
                #expect(message.contains(location.absoluteString), "\(message)")
                for fileWord in ["file", "folder", "disk"] {
                    #expect(!message.lowercased().contains(fileWord), "“\(fileWord)” in: \(message)")
                }
            } catch {
                Issue.record("expected a StorageError, got \(error)")
            }
            #expect(visits.value == 1)
            #expect(try await storages[0].read("visits").map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("1") == true)
        }
    }

    /// A table of the chosen name that another app made — or one that merely shares the
    /// library's column names — is not the library's: it is named in the error, with what to do,
    /// and left as it was (no column added, no row written, its lock never taken).
    @Test(arguments: [
        "id integer PRIMARY KEY, name text NOT NULL, enabled boolean NOT NULL",
        "key text PRIMARY KEY, document bytea NOT NULL",
        "key text PRIMARY KEY, document text NOT NULL, committed_at timestamptz NOT NULL DEFAULT now()",
    ])
    func aTableOfTheNameThatIsNotTheLibrarysIsLeftAsItWas(columns: String) async throws {
        func shape(_ connection: PostgresConnection) async throws -> [String] {
            let sql = """
                SELECT attname || ' ' || format_type(atttypid, atttypmod) FROM pg_attribute
                WHERE attrelid = '\(table)'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum
                """
            var columns: [String] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger) {
                columns.append(try row.decode(String.self))
            }
            return columns
        }
        let before = try await withRawConnection { connection in
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (\(columns))"), logger: connection.logger
            )
            .collect()
            return try await shape(connection)
        }
        try await withRunningStorages(options: options) { storages in
            do {
                _ = try await SharedValueStore(key: "visits", default: 0, storage: storages[0], follows: false)
                Issue.record("a store loaded from another app's table")
            } catch let error as StorageError {
                let message = "\(error)"
                #expect(message.contains("the table \(table) exists and is not one this library made"), "\(message)")
                #expect(message.contains("Options.table"), "\(message)")
            } catch {
                Issue.record("expected a StorageError, got \(error)")
            }
            await #expect(throws: StorageError.self) {
                _ = try await storages[0].transaction("visits", waits: true) { _ in
                    DocumentDecision((), change: DocumentChange(bytes: Data("1".utf8)))
                }
            }
        }
        let after = try await withRawConnection { connection in
            let count = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT count(*)::bigint FROM \(table)"), logger: connection.logger
            ).collect().first?.decode(Int64.self)
            #expect(count == 0)
            return try await shape(connection)
        }
        #expect(after == before)
    }

    /// The ids of an hour of commits — a million rows at 280 commits a second — are looked up by
    /// their time when the old ones are removed (which a commit does now and then, holding its
    /// key): through an index, not by reading the whole table.
    /// A transaction that took a key and then timed out waiting for the commit of the key's last
    /// writer (a commit that hangs, here held open by hand) lets the key go as it reports the
    /// timeout: the connection goes back to the pool without it, and another writer takes the key
    /// once that commit is made.
    @Test func aTransactionThatTimesOutWaitingForTheLastCommitLetsTheKeyGo() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let lockKey = SQL.lockKey(table: table, key: "counter")
            try await withRawConnection { connection in
                func run(_ sql: String) async throws {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
                }
                // The last writer's commit, still being made: its transaction's lock on the key.
                try await run("BEGIN")
                try await run("SELECT pg_advisory_xact_lock(\(lockKey ^ 0x5555_5555_5555_5555))")
                await #expect {
                    _ = try await storages[0].transaction("counter", waits: false) { _ in
                        DocumentDecision((), change: DocumentChange(bytes: Data("1".utf8)))
                    }
                } throws: { error in
                    guard case .lockTimedOut? = error as? StorageError else { return false }
                    return true
                }
                try await run("COMMIT")
            }
            // The first storage's connection, back in its pool, does not hold the key.
            let written = try await storages[1].transaction("counter", waits: true) { _ in
                DocumentDecision(true, change: DocumentChange(bytes: Data("2".utf8)))
            }
            #expect(written?.result == true)
            let stored = try await storages[0].read("counter")
            #expect(stored.map { String(decoding: $0.bytes, as: UTF8.self) } == "2")
        }
    }

    /// A session keeps a key between statements only with a bound on how long it may sit idle
    /// with it: the functions that keep a key set `idle_session_timeout` to the hold they are
    /// given, and both ways of letting it go — the write, and the unlock after a decision to
    /// change nothing — set back the value the session had (here a role's, 7 minutes).
    @Test func aSessionKeepsAKeyIdleOnlyForItsHoldAndGetsItsTimeoutBackWhenItLetsGo() async throws {
        try await withRunningStorages(options: options) { storages in
            let visits = try await SharedValueStore(key: "visits", default: 0, storage: storages[0], follows: false)
            try await visits.update { $0 += 1 }
        }
        try await withRawConnection { connection in
            func value(_ sql: String) async throws -> String {
                var values: [String] = []
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger) {
                    values.append(try row.decode(String.self))
                }
                return values.first ?? ""
            }
            _ = try await value("SELECT set_config('idle_session_timeout', '7min', false)")
            let lockKey = SQL.lockKey(table: table, key: "visits")
            let take =
                "CALL \(table)_lock_read_v9(\(lockKey), 'visits', true, NULL, 2500, NULL::boolean, NULL::bytea, NULL::bigint, NULL::boolean)"
            func locked() async throws -> Bool {
                var locked: [Bool] = []
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: take), logger: connection.logger) {
                    locked.append(try row.decode((Bool, Data?, Int64?, Bool).self).0)
                }
                return locked == [true]
            }
            #expect(try await locked())
            #expect(try await value("SHOW idle_session_timeout") == "2500ms")
            _ = try await connection.query(
                PostgresQuery(
                    unsafeSQL:
                        "CALL \(table)_write_v8(\(lockKey), 'visits', NULL, NULL, NULL, NULL, gen_random_uuid(), 'x', 'y', NULL, NULL)"
                ),
                logger: connection.logger
            ).collect()
            #expect(try await value("SHOW idle_session_timeout") == "7min", "after the write")
            #expect(try await locked())
            #expect(try await value("SHOW idle_session_timeout") == "2500ms")
            _ = try await connection.query(SQL.unlock(lockKey: lockKey), logger: connection.logger).collect()
            #expect(try await value("SHOW idle_session_timeout") == "7min", "after the unlock")
            #expect(try await value("SELECT pg_try_advisory_lock(\(lockKey))::text") == "true", "the key was let go")
        }
    }

    @Test func oldCommitIdsAreFoundByTheirTimeThroughAnIndex() async throws {
        try await withRunningStorages(options: options) { storages in
            let visits = try await SharedValueStore(key: "visits", default: 0, storage: storages[0], follows: false)
            try await visits.update { $0 += 1 }
            try await withRawConnection { connection in
                func rows(_ sql: String) async throws -> [String] {
                    var lines: [String] = []
                    for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger) {
                        lines.append(try row.decode(String.self))
                    }
                    return lines
                }
                let indexes = try await rows("SELECT indexdef FROM pg_indexes WHERE tablename = '\(table)_commits'")
                #expect(indexes.contains { $0.hasSuffix("(committed_at)") }, "\(indexes)")
                // 100,000 recent ids: the removal's look-up must not read them all.
                _ = try await rows(
                    """
                    WITH made AS (
                      INSERT INTO \(table)_commits (commit_id, key, committed_at)
                      SELECT gen_random_uuid(), 'visits', now() - i * interval '30 ms' FROM generate_series(1, 100000) i
                      RETURNING 1
                    ) SELECT count(*)::text FROM made
                    """)
                _ = try await connection.query(PostgresQuery(unsafeSQL: "ANALYZE \(table)_commits"), logger: connection.logger)
                let plan = try await rows(
                    "EXPLAIN \(SQL.oldCommitsRemoval(commits: "\(table)_commits"))"
                ).joined(separator: "\n")
                #expect(plan.contains("Index") && !plan.contains("Seq Scan"), "\(plan)")
            }
        }
    }

    /// An administrator runs the storage once; the app's own role, allowed to read and write the
    /// tables but not to create anything, then uses it: the set-up makes nothing that is there,
    /// so it needs no right to make it. The role's statement timeout, 1 ms, which would cancel
    /// the set-up and every wait for a key, does not apply to the storage's statements.
    @Test func aRoleThatMayOnlyReadAndWriteTheTablesUsesThemOnceMade() async throws {
        guard let url = TestDatabase.url, var components = URLComponents(string: url) else { throw TestFailure("no URL") }
        try await withRunningStorages(options: options) { storages in
            let visits = try await SharedValueStore(key: "visits", default: 0, storage: storages[0], follows: false)
            try await visits.update { $0 += 1 }
        }
        let role = "app_\(UUID().uuidString.prefix(8).lowercased())"
        let password = "pw-\(UUID().uuidString.prefix(8))"
        try await withRawConnection { connection in
            for sql in [
                "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table), \(table)_commits TO \(role)",
                "GRANT USAGE ON SEQUENCE \(table)_versions TO \(role)",
                "ALTER ROLE \(role) SET statement_timeout = '1ms'",
            ] {
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
            }
        }
        components.user = role
        components.password = password
        do {
            try await withRunningStorages(url: components.string, options: options) { storages in
                let visits = try await SharedValueStore(key: "visits", default: 0, storage: storages[0])
                #expect(visits.value == 1)
                try await visits.update { $0 += 1 }
                #expect(visits.value == 2)
            }
        } catch {
            Issue.record("the app's role could not use the tables: \(error)")
        }
        // A table no one made yet: the role is told what to do.
        _ = try await withRunningStorages(url: components.string, options: .init(table: table + "_unmade")) { storages in
            await #expect {
                _ = try await SharedValueStore(key: "visits", default: 0, storage: storages[0])
            } throws: { error in
                guard case .backendUnreachable(_, let reason)? = error as? StorageError else { return false }
                return reason.contains("42501") && reason.contains("run the storage once as a user who may")
            }
        }
        try await withRawConnection { connection in
            for sql in ["REVOKE ALL ON \(table), \(table)_commits, \(table)_versions FROM \(role)", "DROP ROLE \(role)"] {
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
            }
        }
    }

    @Test func aDocumentThatCantBeReadIsKeptAsARowAndTheStoreStartsFromItsDefault() async throws {
        try await withRunningStorages(options: options) { storages in
            try await withRawConnection { connection in
                let sql =
                    "CREATE TABLE IF NOT EXISTS \(table) (key text PRIMARY KEY, document bytea NOT NULL, committed_at timestamptz NOT NULL DEFAULT now())"
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(table) (key, document) VALUES ('visits', '\\x7b6e6f74'::bytea)"),
                    logger: connection.logger
                ).collect()
            }
            let issues = Mutex<[StoreIssue]>([])
            let visits = try await SharedValueStore(
                key: "visits", default: 7, storage: storages[0], follows: false,
                reportIssue: { issue in issues.withLock { $0.append(issue) } })
            #expect(visits.value == 7)
            try await visits.update { $0 += 1 }
            let keys = try await withRawConnection { connection in
                try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT key FROM \(table) ORDER BY key"), logger: connection.logger
                ).collect().map { try $0.decode(String.self) }
            }
            #expect(keys.count == 2)
            #expect(keys.contains("visits"))
            #expect(keys.contains { $0.hasPrefix("visits~corrupt-") })
            #expect(issues.withLock { $0.count } == 1)
            // The message speaks of the row kept, where it is, and of no file.
            let message = issues.withLock { $0.first.map { "\($0)" } } ?? ""
            #expect(message.contains("/\(table)/visits~corrupt-"), "\(message)")
            #expect(message.contains("repair the kept document"), "\(message)")
            #expect(!message.contains(" file"), "\(message)")
        }
    }

    /// A table name that is not a plain identifier is refused before anything is sent, with a
    /// message about table names.
    @Test(arguments: ["x;drop table y", "", "1st", "with space", String(repeating: "t", count: 49)])
    func aBadTableNameIsRefusedAsATableName(table: String) throws {
        #expect {
            _ = try PostgresStorage(url: "postgres://app@127.0.0.1:9/app", options: .init(table: table))
        } throws: { error in
            guard case StorageError.invalidKey(_, let reason) = error else { return false }
            let message = "\(error)"
            return reason.hasPrefix("a table name") && !message.contains("file") && !message.contains("store name")
        }
    }

    /// A storage whose stores do not follow their keys listens to nothing: no connection of its
    /// pool waits for notifications, and no other storage's commit is sent to it. It listens from
    /// the first store that follows a key on.
    @Test func aStorageListensOnlyOnceAStoreFollowsAKey() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let writer = try await SharedValueStore(key: "hits", default: 0, storage: storages[0], follows: false)
            let other = try await SharedValueStore(key: "hits", default: 0, storage: storages[1], follows: false)
            for _ in 0..<5 {
                try await writer.update { $0 += 1 }
                try await other.update { $0 += 1 }
            }
            #expect(!storages[0].isListening && !storages[1].isListening)
            #expect(storages[1].answeredFromNotifications == 0)
            let follower = try await SharedValueStore(key: "hits", default: 0, storage: storages[1])
            try await eventually { storages[1].isListening }
            #expect(!storages[0].isListening)
            try await writer.update { $0 += 1 }
            try await eventually { follower.value == 11 }
        }
    }

    @Test func aCommitIsHeardByAnotherStorageButNotByItsOwn() async throws {
        try await withRunningStorages(count: 2, options: options) { storages in
            let heard = Mutex<(mine: Int, other: Int)>((0, 0))
            let a = try await SharedValueStore(key: "flag", default: false, storage: storages[0])
            let b = try await SharedValueStore(key: "flag", default: false, storage: storages[1])
            let mine = try await storages[0].watch(forKey: "flag") { heard.withLock { $0.mine += 1 } }
            // The listening connection is up, and the watch's first call (made once it listens) is done.
            try await eventually { storages[0].isListening && storages[1].isListening && heard.withLock { $0.mine } == 1 }
            heard.withLock { $0 = (0, 0) }
            try await a.set(true)
            try await eventually { b.value == true }
            #expect(heard.withLock { $0.mine } == 0, "a storage re-read its own commit")
            try await b.set(false)
            try await eventually { a.value == false && heard.withLock { $0.mine } == 1 }
            mine?.cancel()
        }
    }

    /// A commit's notification carries the document when it fits: a follower takes the change
    /// from it without reading the row, and its next update is decided on it in one round trip.
    /// A document too long to fit is read. Run under load (a read of the follower's own in
    /// flight as each change came), it once took every change by reading, one read behind.
    @Test(arguments: [0, 9_000]) func aFollowerTakesAChangeFromTheNotification(padding: Int) async throws {
        struct Padded: Codable, Sendable, Equatable {
            var count: Int
            var padding: String
        }
        try await withRunningStorages(count: 2, options: options) { storages in
            let pad = String(repeating: "p", count: padding)
            let writer = try await SharedValueStore(key: "k", default: Padded(count: 0, padding: pad), storage: storages[0])
            let follower = try await SharedValueStore(key: "k", default: Padded(count: 0, padding: pad), storage: storages[1])
            // The follower's storage listens once its store follows the key, and then calls the
            // store's watch once, which reads the row: that read is done before the follower shows
            // the first change (its reads are one at a time), so it can't take in a later change
            // this test counts as answered by a notification.
            try await eventually { storages[1].isListening }
            try await writer.update { $0.count = 1 }
            try await eventually { follower.value.count == 1 }
            let tripsBefore = storages[1].roundTrips.total
            let answeredBefore = storages[1].answeredFromNotifications
            for expected in 2...4 {
                try await writer.update { $0.count = expected }
                try await eventually { follower.value.count == expected }
            }
            let trips = storages[1].roundTrips.total - tripsBefore
            if padding == 0 {
                #expect(trips == 0, "a change was read, not taken from its notification")
                #expect(storages[1].answeredFromNotifications - answeredBefore >= 3)
            } else {
                #expect(trips >= 3, "each change is read")
            }
            try await follower.update { $0.count += 1 }
            #expect(storages[1].roundTrips.lastCommit == 1)
            #expect(follower.value.count == 5)
            try await eventually { writer.value.count == 5 }
        }
    }

    /// Notifications are ordered by their commit's number: one older than what a follower has
    /// read or committed is not taken in (the storage answers with what it has of the newer
    /// commit, without a read); a newer one is, as it says.
    @Test func aNotificationOlderThanWhatAStorageSawIsNotTakenIn() async throws {
        try await withRunningStorages(count: 1, options: options) { storages in
            let storage = storages[0]
            let store = try await SharedValueStore(key: "k", default: 0, storage: storage)
            try await eventually { storage.isListening }  // once the store follows the key
            try await store.set(5)
            let stored = try #require(try await storage.read("k"))
            let text = String(decoding: stored.bytes, as: UTF8.self)
            #expect(text.contains("\"value\" : 5"), "\(text)")
            let version = try await withRawConnection { connection in
                try await connection.query("SELECT version FROM \(unescaped: table) WHERE key = 'k'", logger: connection.logger)
                    .collect().first?.decode(Int64.self) ?? 0
            }
            func notify(version: Int64, value: Int) async throws {
                let document = Data(text.replacingOccurrences(of: "\"value\" : 5", with: "\"value\" : \(value)").utf8)
                let payload = "\(version) \(UUID().uuidString) \(document.base64EncodedString()) k"
                try await withRawConnection { connection in
                    _ = try await connection.query(
                        "SELECT pg_notify(\(table), \(payload))", logger: connection.logger
                    ).collect()
                }
            }
            var before = storage.roundTrips.total
            var answered = storage.answeredFromNotifications
            try await notify(version: version - 1, value: 99)
            try await eventually { storage.answeredFromNotifications == answered + 1 }
            #expect(store.value == 5, "an older notification was taken in")
            #expect(storage.roundTrips.total == before, "what the storage had of the newer commit was read again")
            before = storage.roundTrips.total
            try await notify(version: version + 1, value: 77)
            try await eventually { store.value == 77 }
            #expect(storage.roundTrips.total == before, "the notification was taken in without a read")
            // The storage's own commits are newer than what it heard: their number is what a
            // notification must pass (the one heard was numbered as the first of them).
            try await store.set(6)
            try await store.set(7)
            let own = try await withRawConnection { connection in
                try await connection.query("SELECT version FROM \(unescaped: table) WHERE key = 'k'", logger: connection.logger)
                    .collect().first?.decode(Int64.self) ?? 0
            }
            #expect(own > version + 1)
            before = storage.roundTrips.total
            answered = storage.answeredFromNotifications
            try await notify(version: own, value: 55)
            try await eventually { storage.answeredFromNotifications == answered + 1 }
            #expect(store.value == 7)
            #expect(storage.roundTrips.total == before)
            // A notification without the document (too long to carry) of a newer commit: read.
            try await withRawConnection { connection in
                _ = try await connection.query(
                    "SELECT pg_notify(\(table), \("\(own + 1) \(UUID().uuidString) - k"))", logger: connection.logger
                ).collect()
            }
            try await eventually { storage.roundTrips.total == before + 1 }
            #expect(store.value == 7)
        }
    }

    /// A store's update run on an event loop's thread (a task whose executor is the loop) waits
    /// for a key another session holds without holding the thread: a job queued on the same loop
    /// meanwhile runs at once, not once the key is let go 2 s later (the bound, 1 s, leaves room
    /// for a loaded machine).
    @Test func aStoreCallFromAnEventLoopNeitherCrashesNorBlocksTheLoop() async throws {
        let options = PostgresStorage.Options(table: table, lockTimeout: .seconds(10), reachTimeout: .seconds(15))
        try await withRunningStorages(options: options) { storages in
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            let loop = MultiThreadedEventLoopGroup.singleton.any()
            let lateness = Mutex<Duration>(.zero)
            try await withRawConnection { holder in
                let lockKey = SQL.lockKey(table: table, key: "counter")
                _ = try await holder.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(lockKey))"), logger: holder.logger)
                    .collect()
                let update = Task(executorPreference: LoopExecutor(loop)) {
                    try await counter.update { $0 += 1 }
                }
                try await Task.sleep(for: .milliseconds(300))
                let queued = ContinuousClock.now
                let ran = loop.submit { lateness.withLock { $0 = ContinuousClock.now - queued } }
                try await Task.sleep(for: .milliseconds(2000))
                _ = try await holder.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(lockKey))"), logger: holder.logger
                )
                .collect()
                try await ran.get()
                try await update.value
            }
            #expect(counter.value == 1)
            #expect(lateness.withLock { $0 } < .seconds(1), "the loop was held while the update waited for the key")
        }
    }

    /// 8 tasks update a key another session holds for 3 s; a heartbeat every 20 ms on the same
    /// process is late by at most 50 ms.
    @Test func writersWaitingForAHeldKeyHoldNoThread() async throws {
        let options = PostgresStorage.Options(table: table, lockTimeout: .seconds(10), reachTimeout: .seconds(15))
        try await withRunningStorages(options: options) { storages in
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            try await withRawConnection { holder in
                let lock = PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock($1)", binds: try Self.lockBinds(table, "counter"))
                _ = try await holder.query(lock, logger: holder.logger).collect()
                let worst = try await withThrowingTaskGroup(of: Duration.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            try await counter.update { $0 += 1 }
                            return .zero
                        }
                    }
                    group.addTask {
                        var worst = Duration.zero
                        let clock = ContinuousClock()
                        var next = clock.now
                        for _ in 0..<150 {  // 3 s of 20 ms beats
                            next += .milliseconds(20)
                            try await Task.sleep(until: next, clock: clock)
                            worst = max(worst, clock.now - next)
                        }
                        return worst
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(3))
                        let unlock = PostgresQuery(
                            unsafeSQL: "SELECT pg_advisory_unlock($1)", binds: try Self.lockBinds(table, "counter"))
                        _ = try await holder.query(unlock, logger: holder.logger).collect()
                        return .zero
                    }
                    var worst = Duration.zero
                    for try await late in group { worst = max(worst, late) }
                    return worst
                }
                print("heartbeat: worst lateness \(worst) while 8 writers waited 3 s for a held key")
                #expect(worst <= .milliseconds(50))
            }
            #expect(counter.value == 8)
        }
    }

    /// Calls one after another share one connection, kept leased between them: only the first
    /// leases one from the pool.
    @Test func callsOneAfterAnotherLeaseFromThePoolOnce() async throws {
        try await withRunningStorages(options: options) { storages in
            let storage = storages[0]
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
            for _ in 1...5 { try await counter.update { $0 += 1 } }
            _ = try await storage.read("counter")
            #expect(counter.value == 5)
            #expect(storage.poolLeases == 1)
        }
    }

    /// A pool of two connections, one of them listening: the connection kept between calls goes
    /// back to the pool when another call waits for it, so two tasks updating at once both finish
    /// (with the connection kept for good, the second would wait until its reach timeout).
    @Test func aKeptConnectionIsGivenBackWhenAnotherCallWaitsForThePool() async throws {
        guard let url = TestDatabase.url else { return }
        var configuration = try PostgresURL.configuration(url)
        configuration.options.maximumConnections = 2
        let storage = try PostgresStorage(configuration: configuration, options: options)
        let run = Task { await storage.run() }
        defer { run.cancel() }
        let first = try await SharedValueStore(key: "first", default: 0, storage: storage, follows: false)
        let second = try await SharedValueStore(key: "second", default: 0, storage: storage, follows: false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                group.addTask { for _ in 1...30 { try await store.update { $0 += 1 } } }
            }
            try await group.waitForAll()
        }
        #expect(first.value == 30)
        #expect(second.value == 30)
        #expect(storage.poolLeases > 1, "the two tasks took turns through the pool")
        run.cancel()
        await run.value
    }

    /// The server ended the session of the connection kept between calls (a restart, an
    /// administrator): the next call is made on another connection at once, not written to the
    /// closed one, where no answer would come.
    @Test func aKeptConnectionThatTheServerEndedIsNotUsed() async throws {
        guard let url = TestDatabase.url else { return }
        var configuration = try PostgresURL.configuration(url)
        configuration.options.additionalStartupParameters.append(("application_name", table))
        // Shorter than the 5 s a round trip left unanswered is waited for (less the second kept
        // for finding out why nothing answered): the update below fails if it is written to the
        // closed connection.
        let storage = try PostgresStorage(
            configuration: configuration, options: .init(table: table, lockTimeout: .seconds(1), reachTimeout: .seconds(4)))
        let run = Task { await storage.run() }
        defer { run.cancel() }
        let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
        try await counter.update { $0 += 1 }
        #expect(storage.keptConnectionIsClosed == false)
        try await withRawConnection { connection in
            var binds = PostgresBindings()
            binds.append(table)
            _ = try await connection.query(
                PostgresQuery(
                    unsafeSQL: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", binds: binds),
                logger: connection.logger
            ).collect()
        }
        try await eventually { storage.keptConnectionIsClosed == true }
        let leases = storage.poolLeases
        // Written to the closed connection, it would wait 5 s for an answer, past its reach timeout.
        try await counter.update { $0 += 1 }
        #expect(counter.value == 2)
        #expect(storage.poolLeases > leases, "the update was made on a connection leased anew")
        run.cancel()
        await run.value
    }

    /// Another session sets the table up (it holds the table's set-up lock, as a storage does
    /// until its set-up's commit is on disk): a storage starting meanwhile waits for it, past its
    /// lock timeout, which bounds waits for keys and not this one, and works once it is done. A
    /// storage of another table sets up and writes while the first still waits.
    @Test func aSetUpWaitsForAnotherOfItsTableButNotOfOtherTables() async throws {
        let other = TestDatabase.freshTable()
        try await withRawConnection { holder in
            try await Self.setUpLock(table, "pg_advisory_lock", on: holder)
            let options = PostgresStorage.Options(table: table, lockTimeout: .milliseconds(1), reachTimeout: .seconds(15))
            try await withRunningStorages(options: options) { storages in
                let waiting = Task {
                    let counter = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
                    try await counter.update { $0 += 1 }
                    return counter.value
                }
                // The server's own clock says how long the set-up has waited: 100 times the
                // lock timeout it would have been cut off at.
                let query = """
                    SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                      AND classid::bigint = $1 AND objid::bigint = $2 AND clock_timestamp() - waitstart > interval '100 ms'
                    """
                let key = SQL.setUpLockKey(table: table)
                var binds = PostgresBindings()
                binds.append(Int64(UInt32(truncatingIfNeeded: key >> 32)))
                binds.append(Int64(UInt32(truncatingIfNeeded: key)))
                let deadline = ContinuousClock.now + .seconds(10)
                while true {
                    let rows = try await holder.query(PostgresQuery(unsafeSQL: query, binds: binds), logger: holder.logger)
                        .collect()
                    if try rows.first?.decode(Int64.self) == 1 { break }
                    guard ContinuousClock.now < deadline else {
                        Issue.record("no set-up waited 100 ms for the table's set-up lock")
                        break
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
                let otherOptions = PostgresStorage.Options(table: other, lockTimeout: .seconds(1), reachTimeout: .seconds(15))
                try await withRunningStorages(options: otherOptions) { others in
                    let visits = try await SharedValueStore(key: "visits", default: 0, storage: others[0], follows: false)
                    try await visits.update { $0 += 1 }
                    #expect(visits.value == 1)
                }
                try await Self.setUpLock(table, "pg_advisory_unlock", on: holder)
                #expect(try await waiting.value == 1)
            }
        }
    }

    /// Eight storages of one new table start at once, each with a lock timeout of 1 ms: they set
    /// the table up one after another, each in one try (a set-up cut off by the lock timeout
    /// would be tried again, a round trip more), and each one's first update is made.
    @Test func storagesStartingAtOnceTakeTurnsToSetUpTheirTable() async throws {
        let options = PostgresStorage.Options(table: table, lockTimeout: .milliseconds(1), reachTimeout: .seconds(15))
        try await withRunningStorages(count: 8, options: options) { storages in
            try await withThrowingTaskGroup(of: (value: Int, tripsToLoad: Int).self) { group in
                for (index, storage) in storages.enumerated() {
                    group.addTask {
                        let store = try await SharedValueStore(key: "k\(index)", default: 0, storage: storage, follows: false)
                        let tripsToLoad = storage.roundTrips.total
                        try await store.update { $0 += index }
                        return (store.value, tripsToLoad)
                    }
                }
                var total = 0
                for try await (value, tripsToLoad) in group {
                    total += value
                    #expect(tripsToLoad == 2, "the set-up and the read")
                }
                #expect(total == (0..<8).reduce(0, +))
            }
        }
    }

    /// The table's set-up lock is held for longer than the reach timeout: the call says the
    /// set-up waited for another session, names the table, and that nothing was read or changed.
    @Test func aSetUpStillWaitingAtTheReachTimeoutSaysWhatItWaitedFor() async throws {
        try await withRawConnection { holder in
            try await Self.setUpLock(table, "pg_advisory_lock", on: holder)
            // Long enough for a connection to be made on a loaded machine (a quarter of it is the
            // time a connection may take).
            let options = PostgresStorage.Options(table: table, lockTimeout: .milliseconds(1), reachTimeout: .seconds(4))
            try await withRunningStorages(options: options) { storages in
                do throws(StorageError) {
                    _ = try await storages[0].read("counter")
                    Issue.record("read while another session held the table's set-up lock")
                } catch {
                    guard case .backendUnreachable(_, let reason) = error else {
                        Issue.record("not backendUnreachable: \(error)")
                        return
                    }
                    #expect(reason.contains("the set-up of the table \(table) waited for a lock"), "\(reason)")
                    #expect(error.description.contains("Nothing was read or changed"), "\(error)")
                }
            }
            try await Self.setUpLock(table, "pg_advisory_unlock", on: holder)
        }
    }

    static func setUpLock(_ table: String, _ function: String, on connection: PostgresConnection) async throws {
        var binds = PostgresBindings()
        binds.append(SQL.setUpLockKey(table: table))
        _ = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT \(function)($1)", binds: binds), logger: connection.logger
        )
        .collect()
    }

    @Test func aStorageThatIsNotRunningSaysSo() async throws {
        let storage = try PostgresStorage(
            url: TestDatabase.url ?? "", options: .init(table: table, reachTimeout: .milliseconds(500)))
        do throws(StorageError) {
            _ = try await storage.read("visits")
            Issue.record("a storage that does not run read")
        } catch {
            #expect(error.description.contains("run()"), "\(error)")
        }
    }

    static func lockBinds(_ table: String, _ key: String) throws -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(PostgresStorage.lockKey(table: table, key: key))
        return binds
    }
}

/// Waits, without a thread, until `condition` holds; fails after 10 s.
func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within 10 s", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

enum WalletTestError: StoreFailure {
    case short(Int)
    case storage(StorageError)
}

/// Runs tasks on an event loop's thread: each of their jobs is a job of the loop.
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop
    init(_ loop: any EventLoop) { self.loop = loop }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
