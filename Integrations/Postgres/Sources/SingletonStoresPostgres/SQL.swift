import Foundation
import PostgresNIO

/// The statements of a storage. The table's name is checked to be a plain identifier before it is
/// written into one; every other value is a bound parameter.
package enum SQL {
    static func lockAndReadFunction(table: String) -> String { "\(table)_lock_read_v9" }
    static func writeFunction(table: String) -> String { "\(table)_write_v8" }
    static func writeIfFunction(table: String) -> String { "\(table)_write_if_v8" }
    static func commitsTable(table: String) -> String { "\(table)_commits" }
    static func versionsSequence(table: String) -> String { "\(table)_versions" }

    /// XORed with a key's lock number, the number of the lock a write holds until it commits: the
    /// next holder of the key waits for it, so that what it reads is that commit.
    static let commitLockMask: Int64 = 0x5555_5555_5555_5555

    /// One statement, run once per storage: the table, the procedure that takes a key's lock and
    /// reads its row, and the two procedures that write it and let the lock go, made when
    /// missing, by one session at a time for the table (sessions setting up other tables do not
    /// wait for it), each waiting for a lock at most `lockWait`. They are procedures, called with `CALL`, which the
    /// server does not plan, and whose one row it does not put in a table first, as it does for a
    /// function read with `SELECT … FROM`.
    ///
    /// A write lets the key's lock go inside the statement that commits, before the commit is
    /// visible; it holds a second lock, of the transaction, that the commit itself releases. The
    /// next holder of the key takes that one (shared) before it reads: it reads with a snapshot
    /// taken after the commit. That makes an update two round trips when it has to read first:
    /// lock and read; write, notify, let go and commit.
    ///
    /// A third statement makes it one: given the bytes the caller expects the row to hold (what
    /// it last read or committed) and the change it decided on them, it takes the key's lock for
    /// its own transaction, waits for the last holder's commit, and writes only if the row holds
    /// those bytes; its lock goes with its commit, which is visible by then. Else it keeps the
    /// key for the session and returns what the row holds: the caller decides on it and writes
    /// with the second one, as after a lock and read. One round trip, or two.
    ///
    /// The second statement — the write after a lock and read, which other writers of the key are
    /// likely waiting for — commits, lets go and notifies before its commit reaches the disk, and
    /// answers once it has (``committingThenFlushing``): the key is held for its work, not for its
    /// flush. The write on a guess, which finds the key free when no one else writes it, commits
    /// the ordinary way, in one transaction: a second one would cost it more than it saves.
    ///
    /// A session that keeps a key between statements is idle while its caller decides, outside
    /// any transaction, where no timeout of the server's applies by default: were its client's
    /// machine to leave the network, the key would stay held until TCP noticed, hours later. So
    /// the procedures that keep a key set the session's `idle_session_timeout` to the caller's
    /// `hold_ms` (PostgreSQL 14 and later), and whatever lets it go sets back the value it had:
    /// the server ends a session that holds a key idle for longer, and the key goes with it.
    ///
    /// Every commit takes a number from the table's sequence, kept in the row (`version`) and sent
    /// first in its notification: the commits of one key are numbered in the order they were
    /// made, since each waits for the last. A table made before the column gets it.
    static func setUp(table: String, lockWait: Duration) -> String {
        let lockAndRead = lockAndReadFunction(table: table)
        let write = writeFunction(table: table)
        let writeIf = writeIfFunction(table: table)
        let mask = commitLockMask
        let commits = commitsTable(table: table)
        let versions = versionsSequence(table: table)
        return """
            DO $setup$
            DECLARE
              found text;
            BEGIN
              -- The set-up's waits (for another session setting up this table, for the locks
              -- its statements take) are bounded by what the caller has left, not by the lock
              -- timeout of a key.
              PERFORM set_config('lock_timeout', '\(milliseconds(lockWait))', true);
              PERFORM pg_advisory_xact_lock(\(setUpLockKey(table: table)));
              IF NOT has_function_privilege('pg_logical_emit_message(boolean,text,text)', 'EXECUTE') THEN
                RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE =
                  'this user may not run pg_logical_emit_message(boolean, text, text), by which a write waits for '
                  || 'its commit to reach the disk: GRANT EXECUTE ON FUNCTION pg_logical_emit_message(boolean, text, text) TO '
                  || quote_ident(current_user);
              END IF;
              \(refusal(of: table, unless: [documentColumns + ", version bigint", documentColumns]))
              \(refusal(of: commits, unless: ["commit_id uuid, key text, committed_at timestamp with time zone"]))
              -- Each object is made only when it is missing: a role that may read and write the
              -- tables but not create anything (the app's, once an administrator ran the storage)
              -- runs this set-up without needing any right to make what is there.
              IF to_regclass('\(table)') IS NULL THEN
                CREATE TABLE \(table) (
                  key text PRIMARY KEY,
                  document bytea NOT NULL,
                  committed_at timestamptz NOT NULL DEFAULT now(),
                  version bigint NOT NULL DEFAULT 0
                );
              END IF;
              IF NOT EXISTS (
                SELECT 1 FROM pg_attribute
                WHERE attrelid = '\(table)'::regclass AND attname = 'version' AND NOT attisdropped
              ) THEN
                ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0;
              END IF;
              IF to_regclass('\(versions)') IS NULL THEN
                CREATE SEQUENCE \(versions);
              END IF;
              IF to_regclass('\(commits)') IS NULL THEN
                CREATE TABLE \(commits) (
                  commit_id uuid PRIMARY KEY,
                  key text NOT NULL,
                  committed_at timestamptz NOT NULL DEFAULT now()
                );
              END IF;
              IF to_regclass('\(commits)_at') IS NULL THEN
                CREATE INDEX \(commits)_at ON \(commits) (committed_at);
              END IF;
              IF to_regprocedure('\(lockAndRead)(bigint,text,boolean,uuid,integer,boolean,bytea,bigint,boolean)') IS NULL THEN
                CREATE PROCEDURE \(lockAndRead)(
                  lock_key bigint, doc_key text, wait boolean, lock_commit_id uuid, hold_ms integer,
                  INOUT locked boolean, INOUT document bytea, INOUT version bigint, INOUT committed boolean)
                LANGUAGE plpgsql AS $function$
                BEGIN
                  locked := false;
                  committed := false;
                  -- A commit found made is done: its statement let the key go before it
                  -- committed, so nothing is held, and nothing needs to be.
                  IF lock_commit_id IS NOT NULL AND EXISTS (SELECT 1 FROM \(commits) c WHERE c.commit_id = lock_commit_id) THEN
                    -- Made, but maybe not yet on disk (its flush was cut off): a record of this
                    -- procedure's, committed here before the answer is made, waits for the disk,
                    -- and so for it.
                    committed := true;
                    PERFORM \(flushMessage);
                    COMMIT;
                    RETURN;
                  END IF;
                  IF wait THEN
                    PERFORM pg_advisory_lock(lock_key);
                  ELSIF NOT pg_try_advisory_lock(lock_key) THEN
                    RETURN;
                  END IF;
                  \(holdingIdleAtMost)
                  -- The last holder's commit, if it is still being made. A key lock of the session
                  -- outlives the statement's failure: given up on, the wait lets the key go.
                  BEGIN
                    PERFORM pg_advisory_xact_lock_shared(lock_key # \(mask));
                  EXCEPTION WHEN OTHERS THEN
                    PERFORM pg_advisory_unlock(lock_key);
                    RAISE;
                  END;
                  locked := true;
                  committed := lock_commit_id IS NOT NULL AND EXISTS (SELECT 1 FROM \(commits) c WHERE c.commit_id = lock_commit_id);
                  SELECT d.document, d.version INTO document, version FROM \(table) d WHERE d.key = doc_key;
                  IF committed THEN
                    PERFORM \(flushMessage);
                    COMMIT;
                  END IF;
                END
                $function$;
              END IF;
              IF to_regprocedure('\(write)(bigint,text,bytea,text,text,bytea,uuid,text,text,bigint,text)') IS NULL THEN
                CREATE PROCEDURE \(write)(
                  lock_key bigint, doc_key text, doc bytea, kept_key text, backup_key text, backup bytea,
                  write_commit_id uuid, channel text, payload text, INOUT new_version bigint, INOUT unflushed text)
                LANGUAGE plpgsql AS $function$
                BEGIN
                  PERFORM pg_advisory_xact_lock(lock_key # \(mask));
                  \(commitStatements(table: table, commits: commits, versions: versions))
                  PERFORM pg_advisory_unlock(lock_key);
                  PERFORM \(lettingGo);
                  \(committingThenFlushing)
                END
                $function$;
              END IF;
              IF to_regprocedure('\(writeIf)(bigint,text,boolean,bytea,boolean,bytea,text,text,bytea,uuid,text,text,integer,boolean,boolean,bytea,bigint)') IS NULL THEN
                CREATE PROCEDURE \(writeIf)(
                  lock_key bigint, doc_key text, expected_present boolean, expected bytea,
                  changes boolean, doc bytea, kept_key text, backup_key text, backup bytea,
                  write_commit_id uuid, channel text, payload text, hold_ms integer,
                  INOUT matched boolean, INOUT present boolean, INOUT document bytea, INOUT version bigint)
                LANGUAGE plpgsql AS $function$
                DECLARE
                  current bytea;
                  current_version bigint;
                  new_version bigint;
                BEGIN
                  PERFORM pg_advisory_xact_lock(lock_key);
                  -- The last holder's commit, if it is still being made.
                  PERFORM pg_advisory_xact_lock_shared(lock_key # \(mask));
                  SELECT d.document, d.version INTO current, current_version FROM \(table) d WHERE d.key = doc_key;
                  present := FOUND;
                  IF present <> expected_present OR (present AND current IS DISTINCT FROM expected) THEN
                    -- Missed: the session keeps the key, for the caller to decide on the row and
                    -- write it with the write procedure, which lets it go.
                    PERFORM pg_advisory_lock(lock_key);
                    \(holdingIdleAtMost)
                    matched := false;
                    document := current;
                    version := current_version;
                    RETURN;
                  END IF;
                  matched := true;
                  document := NULL;
                  IF changes THEN
                    \(commitStatements(table: table, commits: commits, versions: versions))
                    version := new_version;
                    RETURN;
                  END IF;
                  version := current_version;
                END
                $function$;
              END IF;
            END
            $setup$
            """
    }

    /// The end of the write procedure, once its change is made and its locks are to go: the change
    /// commits without waiting for the disk, so that its locks go and its notification leaves as
    /// soon as the commit is visible; then a second transaction, which writes one record, commits
    /// the ordinary way, and its commit waits for the disk — the write-ahead log is flushed in
    /// order, so that wait covers the change — and for the synchronous replicas the server is set
    /// to wait for. The caller hears back only then: the second transaction commits inside the
    /// procedure, before its result row is made, so that no output the server sends early (a
    /// warning flushes what it has buffered) can carry the answer before the flush. A failure to
    /// write the record is returned in `unflushed`, never raised: the change is made, and the
    /// caller finds out by the commit's id that it is on disk. (The commit of a transaction that
    /// holds one record fails only with the server's session, which the caller sees as a lost
    /// connection, and resolves the same way.)
    ///
    /// The next holder of the key, in any session, can so read the change and decide on it while
    /// its flush is under way. It cannot commit anything the change's loss would contradict: its
    /// own commit comes later in the log, and waits for the same flush.
    static let committingThenFlushing = """
        PERFORM set_config('synchronous_commit', 'off', true);
                  COMMIT;
                  BEGIN
                    PERFORM \(flushMessage);
                  EXCEPTION WHEN OTHERS THEN
                    unflushed := SQLERRM;
                  END;
                  COMMIT;
        """

    /// An expression that writes one record to the write-ahead log in the current transaction
    /// (a logical-decoding message, prefix `singleton_stores`, empty, which a logical-replication
    /// consumer may skip): the transaction then has something to commit, and its commit waits
    /// for the disk, and so for every commit the log holds before it.
    static let flushMessage = "pg_logical_emit_message(true, 'singleton_stores', '')"

    /// The statement of a procedure that has just taken a key for its session: the session's
    /// `idle_session_timeout` becomes the procedure's `hold_ms`, its value until then kept in
    /// `singleton_stores.idle_before` for ``lettingGo`` to set back. Nothing on a server older
    /// than PostgreSQL 14, which has no such timeout.
    static let holdingIdleAtMost = """
        IF current_setting('server_version_num')::int >= 140000 THEN
                    PERFORM set_config('singleton_stores.idle_before', current_setting('idle_session_timeout'), false);
                    PERFORM set_config('idle_session_timeout', hold_ms::text || 'ms', false);
                  END IF;
        """

    /// An expression, evaluated as a key is let go, that sets the session's `idle_session_timeout`
    /// back to what it was before ``holdingIdleAtMost`` (the setting's default when it never ran):
    /// performed by the write procedure, selected by ``unlock(lockKey:)``.
    static let lettingGo = """
        CASE WHEN current_setting('server_version_num')::int >= 140000 THEN set_config('idle_session_timeout', \
        coalesce(nullif(current_setting('singleton_stores.idle_before', true), ''), '0'), false) END
        """

    /// The columns of the documents' table, as `format_type` names them, before `version`
    /// (which a table made before that column gets at set-up).
    static let documentColumns = "key text, document bytea, committed_at timestamp with time zone"

    /// A statement of the set-up that stops it, changing nothing, when `table` exists and is not
    /// one the library made: not a plain table, or with columns (names and types, in order) other
    /// than one of `shapes`. Another app's table of the same name is never altered or written.
    static func refusal(of table: String, unless shapes: [String]) -> String {
        let allowed = shapes.map { "'its columns: \($0)'" }.joined(separator: ", ")
        return """
            found := (
              SELECT CASE WHEN c.relkind <> 'r' THEN 'it is not a plain table' ELSE 'its columns: ' || coalesce((
                SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
                FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
              ), 'none') END
              FROM pg_class c WHERE c.oid = to_regclass('\(table)'));
            IF found IS NOT NULL AND found NOT IN (\(allowed)) THEN
              RAISE EXCEPTION USING ERRCODE = '42P07', MESSAGE = format(
                'the table %s exists and is not one this library made (%s): give the storage a table of its own '
                || '(PostgresStorage.Options.table)', '\(table)', found);
            END IF;
            """
    }

    /// The statements both write procedures commit a change with, on their parameters `doc_key`,
    /// `doc`, `kept_key`, `backup_key`, `backup`, `write_commit_id`, `channel` and `payload`, into
    /// their variable `new_version`: the commit's number, the document kept aside and the backup
    /// first, then the new document (or its removal), the commit's id, and the notification (sent
    /// when the transaction commits), which begins with the number.
    static func commitStatements(table: String, commits: String, versions: String) -> String {
        """
        new_version := nextval('\(versions)');
        IF kept_key IS NOT NULL THEN
          INSERT INTO \(table) (key, document)
            SELECT kept_key, d.document FROM \(table) d WHERE d.key = doc_key
            ON CONFLICT (key) DO UPDATE SET document = EXCLUDED.document, committed_at = now();
        END IF;
        IF backup_key IS NOT NULL THEN
          INSERT INTO \(table) (key, document) VALUES (backup_key, backup) ON CONFLICT (key) DO NOTHING;
        END IF;
        IF doc IS NULL THEN
          DELETE FROM \(table) WHERE key = doc_key;
        ELSE
          INSERT INTO \(table) (key, document, version) VALUES (doc_key, doc, new_version)
            ON CONFLICT (key) DO UPDATE SET document = EXCLUDED.document, version = EXCLUDED.version, committed_at = now();
        END IF;
        -- The commit's id, by which a writer that lost its connection finds out that it
        -- committed; kept for an hour, the longest a storage tries to find out.
        INSERT INTO \(commits) (commit_id, key) VALUES (write_commit_id, doc_key);
        IF random() < 0.001 THEN
          \(oldCommitsRemoval(commits: commits));
        END IF;
        PERFORM pg_notify(channel, new_version::text || ' ' || payload);
        """
    }

    /// The removal of the commit ids older than a storage tries to find one out for (an hour,
    /// and a margin), which a commit runs now and then: found by their time through the index
    /// `TABLE_commits_at`, at most 2,000 at a time, so that a commit's share of the work stays
    /// small however many ids the table holds, and twice what the commits between two removals
    /// add.
    package static func oldCommitsRemoval(commits: String) -> String {
        "DELETE FROM \(commits) WHERE commit_id IN (SELECT commit_id FROM \(commits) "
            + "WHERE committed_at < now() - interval '65 minutes' LIMIT 2000)"
    }

    static func read(table: String, key: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(key)
        return PostgresQuery(unsafeSQL: "SELECT document, version FROM \(table) WHERE key = $1", binds: binds)
    }

    static func lockAndRead(
        table: String, lockKey: Int64, key: String, waits: Bool, commit: UUID?, holdMilliseconds: Int32
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        binds.append(key)
        binds.append(waits)
        binds.append(commit)
        binds.append(holdMilliseconds)
        return PostgresQuery(
            unsafeSQL:
                "CALL \(lockAndReadFunction(table: table))($1, $2, $3, $4, $5, NULL::boolean, NULL::bytea, NULL::bigint, NULL::boolean)",
            binds: binds)
    }

    /// Lets the key whose lock is `lockKey` go from the session, after a decision that changes
    /// nothing, and sets the session's idle timeout back.
    package static func unlock(lockKey: Int64) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        return PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock($1), \(lettingGo)", binds: binds)
    }

    /// A change as one statement that commits on its own: the document kept aside and the
    /// backup first, then the new document (or its removal), the notification (sent when the
    /// statement commits), and the key's lock let go. Returns the commit's number, and why the
    /// wait for the disk failed after the change committed (`nil`: it did not; see
    /// ``committingThenFlushing``).
    static func write(
        table: String, lockKey: Int64, key: String, bytes: Data?, keptKey: String?, backup: (key: String, bytes: Data)?,
        commit: UUID, notification: String
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        binds.append(key)
        binds.append(bytes.map { ByteBuffer(bytes: $0) })
        binds.append(keptKey)
        binds.append(backup?.key)
        binds.append(backup.map { ByteBuffer(bytes: $0.bytes) })
        binds.append(commit)
        binds.append(table)
        binds.append(notification)
        return PostgresQuery(
            unsafeSQL: "CALL \(writeFunction(table: table))($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL::bigint, NULL::text)",
            binds: binds)
    }

    /// A change decided on `expected` (`nil`: no row), made in one statement only if the row still
    /// holds it; with `changes` false, a check that the decision stands. Returns whether the row
    /// matched, and otherwise what it holds, with the key held by the session.
    package static func writeIf(
        table: String, lockKey: Int64, key: String, expected: Data?, changes: Bool, bytes: Data?,
        keptKey: String?, backup: (key: String, bytes: Data)?, commit: UUID, notification: String, holdMilliseconds: Int32
    ) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(lockKey)
        binds.append(key)
        binds.append(expected != nil)
        binds.append(expected.map { ByteBuffer(bytes: $0) })
        binds.append(changes)
        binds.append(bytes.map { ByteBuffer(bytes: $0) })
        binds.append(keptKey)
        binds.append(backup?.key)
        binds.append(backup.map { ByteBuffer(bytes: $0.bytes) })
        binds.append(commit)
        binds.append(table)
        binds.append(notification)
        binds.append(holdMilliseconds)
        return PostgresQuery(
            unsafeSQL:
                "CALL \(writeIfFunction(table: table))($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, "
                + "NULL::boolean, NULL::boolean, NULL::bytea, NULL::bigint)",
            binds: binds)
    }

    /// The lock a session holds while it sets `table` up: the hash of the table with an empty
    /// key, which no document has.
    package static func setUpLockKey(table: String) -> Int64 {
        lockKey(table: table, key: "")
    }

    /// `duration` in whole milliseconds for a setting of the server's, at least 1 (0 would mean
    /// no limit).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        // Timeouts are range-checked to at most an hour: a day bounds the arithmetic regardless.
        let bounded = min(max(seconds, 0), 86_400)
        return max(1, bounded * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// The lock of `key` in `table`: a 64-bit FNV-1a hash of both, the same on every machine. Two
    /// keys that share a hash only take turns.
    package static func lockKey(table: String, key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(table.utf8) + [0] + Array(key.utf8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}
