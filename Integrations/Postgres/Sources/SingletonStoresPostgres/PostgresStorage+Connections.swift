import Foundation
import Logging
import PostgresNIO
import SingletonStores

extension PostgresStorage {
    /// What went wrong with a call to the server, as the storage acts on it.
    enum Trouble: Error {
        /// The connection could not be made or was lost: the session, and any lock it held, is
        /// gone or going. Trying again on a new connection is safe.
        case connection(String)
        /// The key's lock was not handed over within the lock timeout.
        case lockTimeout
        /// The server refused the statement; the session is still there.
        case refused(String)
        /// The server will not let this storage in (wrong password, no such database): trying
        /// again would not help.
        case denied(String)
        /// The storage is not running or has been shut down.
        case stopped
        /// The task was cancelled.
        case cancelled
    }

    static func trouble(_ error: any Error) -> Trouble {
        if let trouble = error as? Trouble { return trouble }
        if error is CancellationError { return .cancelled }
        guard let error = error as? PSQLError else {
            return .connection(String(describing: type(of: error)) + ": " + Self.shortened("\(error)"))
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? "no message"
            let reason = "\(message) (SQLSTATE \(state))"
            if state == "55P03" { return .lockTimeout }
            if state.hasPrefix("08") || state.hasPrefix("57") { return .connection("the server said: " + reason) }
            if state.hasPrefix("28") || state == "3D000" || state == "42501" { return .denied("the server said: " + reason) }
            return .refused("the server said: " + reason)
        case .poolClosed:
            return .stopped
        case .queryCancelled:
            return .cancelled
        default:
            let underlying = error.underlying.map { ": " + Self.shortened("\($0)") } ?? ""
            return .connection("\(error.code)\(underlying)")
        }
    }

    static func shortened(_ text: String) -> String {
        let flat = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
        return flat.count > 300 ? String(flat.prefix(300)) + "…" : flat
    }

    struct LeaseTimedOut: Error {}

    /// Runs `body` with a connection of the pool, given up on when none is handed out by
    /// `deadline` (the pool itself retries a failing server for a minute before it says so).
    ///
    /// The connection a call used is kept leased for the next call (see ``ParkedLease``), which
    /// then takes it without going through the pool; it goes back to the pool when a call that
    /// used it fails, when another call is waiting for the pool, or when the storage stops.
    func withLease<R>(until deadline: ContinuousClock.Instant, _ body: (PostgresConnection) async throws -> R) async throws -> R {
        if let parked = parkedLease.takeOrWait() {
            let result: R
            do {
                result = try await body(parked.connection)
            } catch {
                parked.release()
                throw error
            }
            parkedLease.park(parked)
            return result
        }
        var waiting = true
        defer { if waiting { parkedLease.stopWaiting() } }
        let handOff = AsyncThrowingStream<PostgresConnection, any Error>.makeStream()
        let done = AsyncStream<Void>.makeStream()
        let client = client
        let leasing = Task { [self] in
            do {
                try await client.withConnection { connection in
                    self.counters.withLock { $0.leases += 1 }
                    handOff.continuation.yield(connection)
                    for await _ in done.stream {}
                }
                handOff.continuation.finish()
            } catch {
                handOff.continuation.finish(throwing: error)
            }
        }
        // The deadline's timer is the event loop's, which costs less than a task of its own.
        let timer = PostgresClient.defaultEventLoopGroup.next().scheduleTask(in: Self.timeAmount(until: deadline)) {
            handOff.continuation.finish(throwing: LeaseTimedOut())
        }
        var kept = false
        defer {
            if !kept { done.continuation.finish() }
            timer.cancel()
        }
        let connection = try await withTaskCancellationHandler {
            var handed = handOff.stream.makeAsyncIterator()
            guard let connection = try await handed.next() else {
                throw Task.isCancelled ? Trouble.cancelled : Trouble.stopped
            }
            return connection
        } onCancel: {
            leasing.cancel()
        }
        timer.cancel()
        waiting = false
        parkedLease.stopWaiting()
        // The pool may hand out a connection the server has just closed (a restart): no round
        // trip is spent on it; the caller tries again on another.
        try Self.checkOpen(connection)
        let result = try await body(connection)
        parkedLease.park(ParkedLease.Lease(connection: connection, done: done.continuation))
        kept = true
        return result
    }

    /// Counts a round trip and runs `query` on `connection`, returning its rows.
    ///
    /// A round trip that has not ended within 5 s, plus the lock timeout for one that may wait
    /// for a key (`waitsForLock`) or `lockWait` for one that sets its own, is given up on as a
    /// lost connection, and the connection is closed: a query written to a connection that had
    /// just died is never answered, and closing it does not answer it either.
    ///
    /// The query, its rows and its timer stay on the connection's event loop; the caller's task
    /// waits on one promise, which the first of the answer, the timer and a cancellation fulfils.
    /// No task is made for a round trip.
    func send(
        _ query: PostgresQuery, on connection: PostgresConnection, waitsForLock: Bool = false, lockWait: Duration = .zero
    ) async throws -> [PostgresRow] {
        counters.withLock { $0.total += 1 }
        let limit = Self.roundTripLimit + (waitsForLock ? options.lockTimeout : lockWait)
        // A query written to a closed connection would wait for the timer.
        try Self.checkOpen(connection)
        let outcome = connection.eventLoop.makePromise(of: [PostgresRow].self)
        connection.query(query, logger: connection.logger).whenComplete { result in
            outcome.completeWith(result.map(\.rows))
        }
        let timer = connection.eventLoop.scheduleTask(in: Self.timeAmount(limit)) {
            outcome.fail(Trouble.connection("no answer within \(Self.seconds(limit))"))
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await outcome.futureResult.get()
            } onCancel: {
                outcome.fail(Trouble.cancelled)
            }
        } catch {
            switch Self.trouble(error) {
            case .connection, .cancelled: Self.close(connection)
            default: break
            }
            throw error
        }
    }

    /// Throws a lost connection when `connection` has closed (the server restarted between two
    /// round trips of one try): nothing is sent, so no round trip is counted, and no write is
    /// left to find out about. The try starts over on another connection.
    static func checkOpen(_ connection: PostgresConnection) throws {
        guard !connection.isClosed else { throw Trouble.connection("the connection to the server was closed") }
    }

    /// `duration` for a timer of NIO's, at least 1 ns.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        // Timeouts are range-checked to at most an hour: a day bounds the arithmetic regardless.
        let bounded = min(max(duration, .nanoseconds(1)), .seconds(86_400))
        let (seconds, attoseconds) = bounded.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The time left until `deadline`, for a timer of NIO's.
    static func timeAmount(until deadline: ContinuousClock.Instant) -> TimeAmount {
        timeAmount(ContinuousClock.now.duration(to: deadline))
    }

    /// How long a round trip may take, beyond a wait for a lock.
    static let roundTripLimit = Duration.seconds(5)

    /// Closes `connection` without waiting for it: the session ends, and any lock it holds.
    static func close(_ connection: PostgresConnection) {
        Task { try? await connection.close() }
    }

    /// Runs `body` on a connection, again on a new one after a connection was lost, until
    /// ``Options/reachTimeout``; for calls that change nothing on the server.
    func reaching<R>(_ body: (PostgresConnection) async throws -> R) async throws(StorageError) -> R {
        let deadline = ContinuousClock.now + options.reachTimeout - probeReserve
        var lastReason = "no connection was made"
        var pause = Duration.milliseconds(20)
        while true {
            do {
                try await ensureSetUp(until: deadline)
                return try await withLease(until: deadline) { connection in try await body(connection) }
            } catch let error as StorageError {
                throw error
            } catch is LeaseTimedOut {
                guard runState.withLock({ $0 }) else { throw stoppedError() }
                if lastReason == "no connection was made" { lastReason = await probe() }
                throw unreachable(lastReason, within: options.reachTimeout)
            } catch {
                switch Self.trouble(error) {
                case .connection(let reason): lastReason = reason
                case .denied(let reason): throw StorageError.backendUnreachable(backend: description, reason: reason)
                case .refused(let reason): throw StorageError.readFailed(file: endpoint.location(""), reason: reason)
                case .stopped: throw stoppedError()
                case .cancelled: throw StorageError.backendUnreachable(backend: description, reason: "the call was cancelled")
                case .lockTimeout: lastReason = "a lock timed out"
                }
            }
            guard ContinuousClock.now + pause < deadline else { throw unreachable(lastReason, within: options.reachTimeout) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(500))
        }
    }

    /// The part of ``Options/reachTimeout`` kept for ``probe()``: a second, or a quarter of it.
    var probeReserve: Duration { min(.seconds(1), options.reachTimeout / 4) }

    /// Why no connection is made, found by one connection of its own made without the pool
    /// (which keeps its failures to itself), waiting at most a second.
    func probe() async -> String {
        guard let host = endpoint.hostForProbe else { return "no connection was made" }
        var configuration = PostgresConnection.Configuration(
            host: host, port: endpoint.port, username: username, password: password, database: endpoint.database, tls: .disable)
        configuration.options.connectTimeout = .init(probeReserve)
        do {
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 0, logger: Logger(label: "probe", factory: { _ in SwiftLogNoOpLogHandler() }))
            try? await connection.close()
            return "no connection was made"
        } catch {
            switch Self.trouble(error) {
            case .connection(let reason), .denied(let reason), .refused(let reason): return reason
            default: return "no connection was made"
            }
        }
    }

    func unreachable(_ reason: String, within: Duration) -> StorageError {
        .backendUnreachable(backend: description, reason: "\(reason) (tried for \(Self.seconds(within)))")
    }

    func stoppedError() -> StorageError {
        .backendUnreachable(
            backend: description,
            reason: "the storage is not running: call run() in a task of its own, or add it to a ServiceGroup, before using it")
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// Makes the table and its procedures when missing, once per storage.
    ///
    /// Its waits for locks — for another storage setting up the same table, which holds the
    /// table's set-up lock until its commit is on disk — last until `deadline`, not the lock
    /// timeout of a key: many storages starting at once take turns, and none is refused for it.
    func ensureSetUp(until deadline: ContinuousClock.Instant) async throws {
        if setUp.withLock({ $0 == .done }) { return }
        try await withLease(until: deadline) { connection in
            let wait = ContinuousClock.now.duration(to: deadline)
            do {
                _ = try await send(
                    PostgresQuery(unsafeSQL: SQL.setUp(table: endpoint.table, lockWait: wait)), on: connection, lockWait: wait)
            } catch {
                if case .lockTimeout = Self.trouble(error) {
                    throw unreachable(
                        "the set-up of the table \(endpoint.table) waited for a lock that another session held (another "
                            + "storage setting the table up, or a statement of someone else's on it)",
                        within: options.reachTimeout)
                }
                // Refused a right: the set-up only makes what is missing, so something is.
                guard case .denied(let reason) = Self.trouble(error) else { throw error }
                // A right the set-up checks for itself names the grant.
                if reason.contains("GRANT ") { throw Trouble.denied(reason) }
                throw Trouble.denied(
                    reason + "; the set-up makes the table \(endpoint.table), its companions and procedures only when "
                        + "they are missing, and this user may not make them: run the storage once as a user who may, "
                        + "then grant this one the rights the article Stores shared across machines lists")
            }
        }
        setUp.withLock { $0 = .done }
    }
}
