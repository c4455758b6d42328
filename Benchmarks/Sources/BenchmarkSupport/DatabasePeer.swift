import Foundation

#if BENCHMARK_PEERS
import GRDB
#endif

/// The database peer of the persisted rows: GRDB (SQLite) holding each document as a blob in
/// one table, `documents(key TEXT PRIMARY KEY, body BLOB)`, in WAL mode (a `DatabasePool`) —
/// what an app that wants each write to survive a power cut would reach for. Without the peers
/// (`--no-peers`) every initializer throws ``DatabasePeerError/notBuilt``.
public final class DocumentDatabase: @unchecked Sendable {
    /// SQLite's `PRAGMA synchronous` for the connection that writes.
    public enum Synchronous: String, Sendable {
        /// Durable at each commit: the WAL is synced when a transaction commits.
        case full = "FULL"
        /// Synced at checkpoints only: a commit may be lost at a power cut, never corrupted.
        case normal = "NORMAL"
    }

    /// Whether the benchmark package was built with GRDB.
    public static var isBuilt: Bool {
        #if BENCHMARK_PEERS
        true
        #else
        false
        #endif
    }

    #if BENCHMARK_PEERS
    private let pool: DatabasePool
    #endif

    /// Opens (creating if needed) the database at `path`, WAL mode, with `synchronous`.
    public init(path: String, synchronous: Synchronous) throws {
        #if BENCHMARK_PEERS
        pool = try DatabasePool(path: path)
        // A pool sets `synchronous = NORMAL` when it turns WAL on, after `prepareDatabase`: the
        // setting is made on the one writer connection once it is open.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)")
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS documents (key TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL)")
        }
        #else
        throw DatabasePeerError.notBuilt
        #endif
    }

    /// The writer connection's `PRAGMA synchronous` as SQLite reports it (0 off, 1 normal,
    /// 2 full, 3 extra): to check the setting took.
    public func synchronousLevel() throws -> Int {
        #if BENCHMARK_PEERS
        try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        #else
        throw DatabasePeerError.notBuilt
        #endif
    }

    /// One transaction that inserts or replaces the row `key` with `body`.
    public func upsert(key: String, body: Data) throws {
        #if BENCHMARK_PEERS
        try pool.write { db in
            try db.execute(
                sql: "INSERT INTO documents (key, body) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET body = excluded.body",
                arguments: [key, body])
        }
        #else
        throw DatabasePeerError.notBuilt
        #endif
    }

    /// The bodies of `keys`, read in one read transaction (`nil` for a missing row).
    public func read(keys: [String]) throws -> [Data?] {
        #if BENCHMARK_PEERS
        try pool.read { db in
            try keys.map { try Data.fetchOne(db, sql: "SELECT body FROM documents WHERE key = ?", arguments: [$0]) }
        }
        #else
        throw DatabasePeerError.notBuilt
        #endif
    }
}

/// Why the database peer could not run.
public enum DatabasePeerError: Error, CustomStringConvertible {
    /// The benchmark package was built without the peers (`--no-peers`).
    case notBuilt

    public var description: String { "GRDB is not built (run without --no-peers)" }
}
