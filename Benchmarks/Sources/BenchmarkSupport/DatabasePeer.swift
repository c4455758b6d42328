import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// The fewest writes of ``warmUpPastCheckpoint(walPath:_:)``, and the run of writes the WAL
    /// file must keep its size over (it has been checkpointed and is being reused).
    public static let warmUpWrites = 1_000
    static let steadyWrites = 300
    /// The size the WAL reaches before SQLite's automatic checkpoint (1,000 pages of 4 KiB,
    /// its defaults): a WAL smaller than this has not been checkpointed yet.
    static let checkpointedWALBytes = 1_000 * 4_096

    /// Writes with `write` until the database is as an app that has kept it open a while has
    /// it: at least ``warmUpWrites`` writes, the WAL file at `walPath` grown to the size of
    /// SQLite's automatic checkpoint, and no longer growing over the last 300 (its first
    /// checkpoint is past, and commits overwrite the WAL from its start).
    /// Returns the writes made; throws when the WAL still grows after 20,000.
    @discardableResult
    public func warmUpPastCheckpoint(walPath: String, _ write: () throws -> Void) throws -> Int {
        var steady = 0
        var size = -1
        for count in 1...20_000 {
            try write()
            var status = stat()
            guard stat(walPath, &status) == 0 else { throw DatabasePeerError.noWAL(walPath) }
            steady = Int(status.st_size) == size ? steady + 1 : 0
            size = Int(status.st_size)
            if count >= Self.warmUpWrites, steady >= Self.steadyWrites, size >= Self.checkpointedWALBytes {
                FileHandle.standardError.write(Data("GRDB long-lived: warmed with \(count) writes, WAL \(size) bytes\n".utf8))
                return count
            }
        }
        throw DatabasePeerError.walStillGrowing(walPath)
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
    /// The database in WAL mode has no WAL file at this path.
    case noWAL(String)
    /// The WAL file at this path still grew after the warm-up's 20,000 writes.
    case walStillGrowing(String)

    public var description: String {
        switch self {
        case .notBuilt: "GRDB is not built (run without --no-peers)"
        case .noWAL(let path): "no WAL file at \(path): is the database in WAL mode?"
        case .walStillGrowing(let path): "the WAL \(path) still grows after 20,000 writes: no checkpoint happened"
        }
    }
}
