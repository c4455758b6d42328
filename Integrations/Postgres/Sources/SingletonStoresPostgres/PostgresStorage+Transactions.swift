import Foundation
import PostgresNIO
import SingletonStores

extension PostgresStorage {
    /// The last committed bytes of the document under `key`, in one round trip: it never waits
    /// for a writer. See `AsyncStoreStorage.read`.
    public func read(_ key: String) async throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        let table = endpoint.table
        let rows = try await reaching { connection in try await self.send(SQL.read(table: table, key: key), on: connection) }
        guard let row = rows.first else {
            known.withLock { $0.remember(key, nil, version: nil) }
            return nil
        }
        do {
            let (bytes, version) = try row.decode((Data, Int64).self)
            known.withLock { $0.remember(key, bytes, version: version) }
            return StoredBytes(bytes, location: endpoint.location(key))
        } catch {
            throw .readFailed(
                file: endpoint.location(key), reason: "the row's document is not bytes (\(Self.shortened("\(error)")))")
        }
    }

    /// The bytes of the document under `key` after a watch was called, without a round trip when
    /// the notifications heard say what the row holds: what the last one carried, when it is the
    /// newest commit of the key this storage knows of; or, when no commit newer than the one this
    /// storage last read or made was announced (a read of its own crossed the notification), what
    /// it has of that commit. Otherwise ``read(_:)``. See `AsyncStoreStorage.readHeard`.
    ///
    /// A notification carries the document when it fits (about 5,900 bytes, less the key).
    public func readHeard(_ key: String) async throws(StorageError) -> StoredBytes? {
        let key = try Self.validKey(key)
        if let document = known.withLock({ $0.takeHeard(key) }) {
            counters.withLock { $0.heard += 1 }
            return StoredBytes(document, location: endpoint.location(key))
        }
        return try await read(key)
    }

    /// Commits what `body` decides on the document under `key`, under the key's lock on the
    /// server — against every process and machine that uses the table — and only on the bytes
    /// the row holds then. See `AsyncStoreStorage.transaction`.
    ///
    /// With `waits: true`, `body` first decides on what this storage last read or committed of
    /// the row, and the change is sent with those bytes: one round trip when the row still holds
    /// them; else the row comes back with the key held and `body` decides again on it (see
    /// ``PostgresStorage``, "How a transaction holds a key").
    ///
    /// With `waits: false` it returns `nil` at once when another writer holds the key; with
    /// `waits: true` it waits in the server up to ``Options/lockTimeout``, then throws
    /// `StorageError.lockTimedOut`. A connection lost before the write is
    /// made again and the transaction started over; one lost during the write is resolved by
    /// the commit id (see ``PostgresStorage``).
    public func transaction<Result>(
        _ key: String,
        waits: Bool,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws(StorageError) -> DocumentCommit<Result>? {
        let key = try Self.validKey(key)
        let deadline = ContinuousClock.now + options.reachTimeout - probeReserve
        var attempt = Attempt<Result>(key: key, lockKey: SQL.lockKey(table: endpoint.table, key: key), waits: waits)
        var pause = Duration.milliseconds(20)
        while true {
            do {
                try await ensureSetUp(until: deadline)
                let outcome = try await withLease(until: deadline) { connection in
                    switch try await self.guess(&attempt, on: connection, body) {
                    case .holding(let document)?:
                        return try await self.decideHolding(&attempt, on: connection, document: document, body)
                    case let outcome?:
                        return outcome
                    case nil:
                        return try await self.run(&attempt, on: connection, body)
                    }
                }
                switch outcome {
                case .busy: return nil
                case .done(let commit): return commit
                case .holding: throw Trouble.connection("a try ended holding the key")
                }
            } catch let error as StorageError {
                throw error
            } catch is LeaseTimedOut {
                if !runState.withLock({ $0 }), attempt.pending == nil { throw stoppedError() }
                if attempt.lastReason == "no connection was made" { attempt.lastReason = await probe() }
                throw attempt.giveUp(self)
            } catch {
                switch Self.trouble(error) {
                case .connection(let reason):
                    attempt.lastReason = reason
                case .refused(let reason) where attempt.pending != nil:
                    attempt.lastReason = reason
                case .lockTimeout where attempt.pending != nil:
                    attempt.lastReason = "the key's lock was still held by the session that lost its connection"
                case .lockTimeout:
                    throw StorageError.lockTimedOut(file: endpoint.location(key), holder: nil, waited: options.lockTimeout)
                case .refused(let reason):
                    throw StorageError.writeFailed(file: endpoint.location(key), reason: reason)
                case .denied(let reason):
                    if attempt.pending != nil { throw attempt.giveUp(self) }
                    throw StorageError.backendUnreachable(backend: description, reason: reason)
                case .stopped:
                    if attempt.pending != nil { throw attempt.giveUp(self) }
                    throw stoppedError()
                case .cancelled:
                    if attempt.pending != nil { throw attempt.giveUp(self) }
                    throw StorageError.backendUnreachable(
                        backend: description, reason: "the call was cancelled; nothing was changed")
                }
            }
            guard ContinuousClock.now + pause < deadline else { throw attempt.giveUp(self) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(500))
        }
    }

    /// Follows the document under `key` through the storage's listening connection: `onChange`
    /// runs when another storage (in this process or any other) commits it, never for this
    /// storage's own commits, and once each time the listening connection is made again.
    public func watch(forKey key: String, onChange: @escaping @Sendable () -> Void) async throws(StorageError) -> StorageWatch? {
        let key = try Self.validKey(key)
        let listener = listener
        let token = listener.add(key: key, onChange)
        return StorageWatch(mechanism: { .serverPush }, stop: { listener.remove(token) })
    }

    // MARK: One attempt

    enum Outcome<Result> {
        case busy
        case done(DocumentCommit<Result>)
        /// This connection's session holds the key, and the row holds these bytes (`nil`: no row).
        case holding(Data?)
    }

    struct Attempt<Result> {
        let key: String
        let lockKey: Int64
        let waits: Bool
        /// A write whose commit was not confirmed: its id, and what it returns once found.
        var pending: (id: UUID, commit: DocumentCommit<Result>)?
        var lastReason = "no connection was made"
        /// Round trips made so far, over every try.
        var trips = 0

        func giveUp(_ storage: PostgresStorage) -> StorageError {
            if pending != nil {
                return .commitOutcomeUnknown(
                    backend: storage.description, key: key,
                    reason:
                        "\(lastReason); the storage could not find out within \(PostgresStorage.seconds(storage.options.reachTimeout))"
                )
            }
            return storage.unreachable(lastReason, within: storage.options.reachTimeout)
        }
    }

    /// One try on one connection: lock and read (finding out, when a write is pending, whether
    /// it committed), decide, write, unlock. Throws what the connection threw.
    func run<Result>(
        _ attempt: inout Attempt<Result>, on connection: PostgresConnection,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws -> Outcome<Result> {
        let table = endpoint.table
        let rows: [PostgresRow]
        try Self.checkOpen(connection)
        attempt.trips += 1
        do {
            rows = try await send(
                SQL.lockAndRead(
                    table: table, lockKey: attempt.lockKey, key: attempt.key, waits: attempt.waits || attempt.pending != nil,
                    commit: attempt.pending?.id, holdMilliseconds: holdMilliseconds),
                on: connection, waitsForLock: attempt.waits || attempt.pending != nil)
        } catch {
            // A lock request that timed out took nothing; any other failure may have left the
            // lock with the session, which must not go back to the pool.
            if case .lockTimeout = Self.trouble(error) {} else { Self.close(connection) }
            throw error
        }
        guard let row = rows.first else { throw Trouble.connection("the lock-and-read call returned no row") }
        let (locked, document, version, committed) = try row.decode((Bool, Data?, Int64?, Bool).self)
        if !locked, committed, let pending = attempt.pending {
            // The lost write was found committed without taking the key: done in this round trip.
            attempt.pending = nil
            let trips = attempt.trips
            counters.withLock { $0.lastCommit = trips }
            return .done(pending.commit)
        }
        guard locked else { return .busy }
        known.withLock { $0.remember(attempt.key, document, version: version) }
        if let pending = attempt.pending {
            attempt.pending = nil
            if committed {
                await unlock(&attempt, on: connection)
                let trips = attempt.trips
                counters.withLock { $0.lastCommit = trips }
                return .done(pending.commit)
            }
            // Not committed: the transaction runs again on what is there now.
        }
        return try await decideHolding(&attempt, on: connection, document: document, body)
    }

    /// Lets the key's lock go; a connection that could not is closed, and the lock ends with
    /// its session.
    func unlock<Result>(_ attempt: inout Attempt<Result>, on connection: PostgresConnection) async {
        // A closed connection's session has ended, and its locks with it.
        guard !connection.isClosed else { return }
        attempt.trips += 1
        do {
            _ = try await send(SQL.unlock(lockKey: attempt.lockKey), on: connection)
        } catch {
            Self.close(connection)
        }
    }

    /// The rest of a try once this connection's session holds the key and has read `document`:
    /// decide, then write, notify, let go and commit in one round trip (or only let go, for a
    /// decision that changes nothing).
    func decideHolding<Result>(
        _ attempt: inout Attempt<Result>, on connection: PostgresConnection, document: Data?,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws -> Outcome<Result> {
        let table = endpoint.table
        let current = document.map { StoredBytes($0, location: endpoint.location(attempt.key)) }
        let decision: DocumentDecision<Result>
        do {
            decision = try body(current)
        } catch {
            await unlock(&attempt, on: connection)
            throw error
        }
        let change = decision.change
        guard change.bytes != nil || (change.settingAside != nil && document != nil) else {
            await unlock(&attempt, on: connection)
            return .done(DocumentCommit(decision.result))
        }
        let commitID = UUID()
        let keptKey = change.settingAside.flatMap { problem in document.map { _ in Self.keptKey(attempt.key, problem) } }
        let backup = change.backup.map { (key: "\(attempt.key)~backup-v\($0.from)", bytes: $0.original) }
        let commit = DocumentCommit(decision.result, keptAt: keptKey.map { endpoint.location($0) })
        try Self.checkOpen(connection)
        attempt.trips += 1
        let written: [PostgresRow]
        do {
            written = try await send(
                SQL.write(
                    table: table, lockKey: attempt.lockKey, key: attempt.key, bytes: change.bytes, keptKey: keptKey,
                    backup: backup, commit: commitID,
                    notification: Listener.payload(storage: identity, key: attempt.key, document: change.bytes)),
                on: connection)
        } catch {
            if case .refused = Self.trouble(error) {
                // The server refused the statement and rolled it back; the session goes on.
                await unlock(&attempt, on: connection)
                throw error
            }
            // Lost during the write: committed or not, the next attempt finds out.
            pend(&attempt, (commitID, commit))
            Self.close(connection)
            throw error
        }
        // The write let the lock go as it committed.
        guard let row = written.first else {
            pend(&attempt, (commitID, commit))
            throw Trouble.connection("the write returned no row")
        }
        let (version, unflushed) = try row.decode((Int64?, String?).self)
        if let unflushed {
            pend(&attempt, (commitID, commit))
            throw Trouble.connection("the write committed, but its wait for the disk failed (\(Self.shortened(unflushed)))")
        }
        known.withLock { $0.remember(attempt.key, change.bytes, version: version) }
        let trips = attempt.trips
        counters.withLock { $0.lastCommit = trips }
        return .done(commit)
    }

    /// One try in one round trip: `body` decides on the bytes this storage last read or
    /// committed, and the server makes the change only if the row still holds them (a body that
    /// changes nothing is checked the same way: its decision stands only on what the row holds).
    /// On a miss the server keeps the key for this session and hands back the row, and the
    /// caller decides on it holding the key (``decideHolding(_:on:document:_:)``): an update
    /// is one round trip, or two, never more. `nil` when there is nothing to guess from, the
    /// transaction must not wait (`waits: false`), a write is pending, or the body threw on a
    /// guess: the caller takes the lock and reads.
    func guess<Result>(
        _ attempt: inout Attempt<Result>, on connection: PostgresConnection,
        _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) async throws -> Outcome<Result>? {
        // A transaction that must not wait for a held key takes the lock first: its body never
        // runs while another writer holds the key.
        guard attempt.waits, attempt.pending == nil, let guess = known.withLock({ $0.guess(attempt.key) }) else {
            return nil
        }
        let expected: Data?
        switch guess {
        case .absent: expected = nil
        case .bytes(let bytes): expected = bytes
        }
        let decision: DocumentDecision<Result>
        do {
            decision = try body(expected.map { StoredBytes($0, location: endpoint.location(attempt.key)) })
        } catch {
            return nil
        }
        let change = decision.change
        let changes = change.bytes != nil || (change.settingAside != nil && expected != nil)
        let commitID = UUID()
        let keptKey =
            changes ? change.settingAside.flatMap { problem in expected.map { _ in Self.keptKey(attempt.key, problem) } } : nil
        let backup = changes ? change.backup.map { (key: "\(attempt.key)~backup-v\($0.from)", bytes: $0.original) } : nil
        let commit = DocumentCommit(decision.result, keptAt: keptKey.map { endpoint.location($0) })
        try Self.checkOpen(connection)
        attempt.trips += 1
        let rows: [PostgresRow]
        do {
            rows = try await send(
                SQL.writeIf(
                    table: endpoint.table, lockKey: attempt.lockKey, key: attempt.key, expected: expected, changes: changes,
                    bytes: change.bytes, keptKey: keptKey, backup: backup, commit: commitID,
                    notification: Listener.payload(storage: identity, key: attempt.key, document: change.bytes),
                    holdMilliseconds: holdMilliseconds),
                on: connection, waitsForLock: true)
        } catch {
            switch Self.trouble(error) {
            case .lockTimeout, .refused:
                // The server ended the statement and rolled it back; the session holds nothing.
                break
            default:
                // Lost on the way: the session may hold the key (it is closed, and the lock
                // ends with it), and a change may have committed, which the next attempt finds out.
                known.withLock { $0.forget(attempt.key) }
                Self.close(connection)
                if changes { attempt.pending = (commitID, commit) }
            }
            throw error
        }
        guard let row = rows.first else {
            Self.close(connection)
            if changes { attempt.pending = (commitID, commit) }
            throw Trouble.connection("the conditional write returned no row")
        }
        let (matched, present, document, version) = try row.decode((Bool, Bool, Data?, Int64?).self)
        guard matched else {
            // Missed: the session holds the key now, with the row as it is.
            let current = present ? (document ?? Data()) : nil
            known.withLock {
                $0.remember(attempt.key, current, version: version)
                $0.missed(attempt.key)
            }
            return .holding(current)
        }
        guard changes else {
            known.withLock { $0.saw(attempt.key, version: version) }
            return .done(DocumentCommit(decision.result))
        }
        known.withLock { $0.remember(attempt.key, change.bytes, version: version) }
        let trips = attempt.trips
        counters.withLock { $0.lastCommit = trips }
        return .done(commit)
    }

    /// Marks a write whose outcome is not confirmed — lost on the way, unanswered, or committed
    /// with its wait for the disk failed: what the storage knew of the row is forgotten, and the
    /// next try finds out by the commit's id (waiting for the disk as it does).
    func pend<Result>(_ attempt: inout Attempt<Result>, _ write: (id: UUID, commit: DocumentCommit<Result>)) {
        known.withLock { $0.forget(attempt.key) }
        attempt.pending = write
    }

    static func keptKey(_ key: String, _ problem: DocumentProblem) -> String {
        let stamp = Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false).dateSeparator(.omitted).timeSeparator(.omitted))
        return "\(key)~\(problem.tag)-\(stamp)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
