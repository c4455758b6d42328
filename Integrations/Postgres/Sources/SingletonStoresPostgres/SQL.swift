import Foundation
import PostgresNIO

/// The statements of a storage. The table's name is checked to be a plain identifier before it is
/// written into one; every other value is a bound parameter.
enum SQL {
    static func function(table: String) -> String { "\(table)_lock_read_v1" }

    /// One statement, run once per storage: the table and the function that takes a key's lock
    /// and then reads its row with a snapshot of its own (so that what it reads is what the last
    /// holder of the lock committed), made when missing, by one session at a time.
    static func setUp(table: String) -> String {
        let function = function(table: table)
        return """
            DO $setup$
            BEGIN
              PERFORM pg_advisory_xact_lock(7305692186513401001);
              CREATE TABLE IF NOT EXISTS \(table) (
                key text PRIMARY KEY,
                document bytea NOT NULL,
                commits uuid[] NOT NULL DEFAULT '{}',
                committed_at timestamptz NOT NULL DEFAULT now()
              );
              IF to_regprocedure('\(function)(bigint,text,boolean,uuid)') IS NULL THEN
                CREATE FUNCTION \(function)(lock_key bigint, doc_key text, wait boolean, commit_id uuid)
                RETURNS TABLE(locked boolean, document bytea, committed boolean)
                LANGUAGE plpgsql VOLATILE AS $function$
                BEGIN
                  IF wait THEN
                    PERFORM pg_advisory_lock(lock_key);
                  ELSIF NOT pg_try_advisory_lock(lock_key) THEN
                    RETURN QUERY SELECT false, NULL::bytea, false;
                    RETURN;
                  END IF;
                  RETURN QUERY SELECT true,
                    (SELECT d.document FROM \(table) d WHERE d.key = doc_key),
                    commit_id IS NOT NULL AND EXISTS (
                      SELECT 1 FROM \(table) d
                      WHERE (d.key = doc_key OR starts_with(d.key, doc_key || '~')) AND commit_id = ANY(d.commits));
                END
                $function$;
              END IF;
            END
            $setup$
            """
    }

    static func read(table: String, key: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(key)
        return PostgresQuery(unsafeSQL: "SELECT document FROM \(table) WHERE key = $1", binds: binds)
    }

    static func lockAndRead(table: String, lockKey: Int64, key: String, waits: Bool, commit: UUID?) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        binds.append(key)
        binds.append(waits)
        binds.append(commit)
        return PostgresQuery(
            unsafeSQL: "SELECT locked, document, committed FROM \(function(table: table))($1, $2, $3, $4)", binds: binds)
    }

    static func unlock(lockKey: Int64) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        return PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock($1)", binds: binds)
    }

    /// A change as one statement that commits on its own: the document kept aside and the
    /// backup first, then the new document (or its removal), and the notification, which the
    /// server sends when the statement commits.
    static func write(
        table: String, key: String, bytes: Data?, keptKey: String?, backup: (key: String, bytes: Data)?,
        commit: UUID, notification: String
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(key)  // $1
        binds.append(commit)  // $2
        binds.append(table)  // $3: the channel
        binds.append(notification)  // $4
        var parts: [String] = []
        if let keptKey {
            binds.append(keptKey)
            parts.append(
                """
                kept AS (INSERT INTO \(table) (key, document, commits)
                  SELECT $\(binds.count), d.document, ARRAY[$2::uuid] FROM \(table) d WHERE d.key = $1
                  ON CONFLICT (key) DO UPDATE SET document = EXCLUDED.document, commits = EXCLUDED.commits, committed_at = now())
                """)
        }
        if let backup {
            binds.append(backup.key)
            binds.append(ByteBuffer(bytes: backup.bytes))
            parts.append(
                """
                backup AS (INSERT INTO \(table) (key, document) VALUES ($\(binds.count - 1), $\(binds.count))
                  ON CONFLICT (key) DO NOTHING)
                """)
        }
        if let bytes {
            binds.append(ByteBuffer(bytes: bytes))
            parts.append(
                """
                written AS (INSERT INTO \(table) (key, document, commits) VALUES ($1, $\(binds.count), ARRAY[$2::uuid])
                  ON CONFLICT (key) DO UPDATE SET document = EXCLUDED.document,
                    commits = (ARRAY[$2::uuid] || \(table).commits)[1:16], committed_at = now())
                """)
        } else {
            parts.append("removed AS (DELETE FROM \(table) WHERE key = $1)")
        }
        return PostgresQuery(
            unsafeSQL: "WITH " + parts.joined(separator: ",\n") + "\nSELECT pg_notify($3, $4)", binds: binds)
    }

    /// The lock of `key` in `table`: a 64-bit FNV-1a hash of both, the same on every machine. Two
    /// keys that share a hash only take turns.
    static func lockKey(table: String, key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(table.utf8) + [0] + Array(key.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}
