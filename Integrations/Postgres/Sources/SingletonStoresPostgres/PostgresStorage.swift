import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import SingletonStores
import Synchronization

/// A storage whose documents are rows of one PostgreSQL table, shared by every process and
/// machine that connects to the same database: a transaction holds the key across all of them,
/// and a commit is heard by every other storage on the table at once (`LISTEN`/`NOTIFY`).
///
/// Start it as PostgresNIO's own client is started — its ``run()`` in a task of its own, or the
/// storage in a swift-service-lifecycle `ServiceGroup` — and use it with stores while it runs:
///
/// ```swift
/// let storage = try PostgresStorage(url: "postgres://app@db.internal:5432/app")
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await storage.run() }
///     let visits = try await SharedValueStore(key: "visits", default: 0, storage: storage)
///     try await visits.update { $0 += 1 }
///     print(visits.value)
///     group.cancelAll()  // shuts the storage down: its connections are closed
/// }
/// ```
///
/// ## What it keeps
/// One table (``Options/table``, made on first use when missing): a row per key — the document's
/// bytes, the time of its last commit and that commit's number (from the sequence
/// `TABLE_versions`) — and beside it `TABLE_commits`, the id of every commit of the last hour.
/// Backups taken before a migration and documents set aside because they could not be used are
/// rows too, under keys `KEY~backup-vN` and `KEY~unreadable-…` or `KEY~corrupt-…`.
///
/// ## How other instances' commits are followed
/// A commit's notification carries its number and, when it fits, the document. A store that
/// follows the key takes the change from it without a round trip (``readHeard(_:)``), unless
/// this storage has read or committed a newer number of the key since; then, and for a document
/// too long to carry, it reads the row.
///
/// ## How a transaction holds a key
/// A key's lock is an advisory lock named after the table and the key (see
/// ``lockKey(table:key:)``). A transaction that may wait decides first on what the storage last
/// read or committed of the row, then sends one statement that takes the lock for its own
/// transaction, checks that the row still holds those bytes, writes, sends the notification and
/// commits — one round trip. When the row changed meanwhile, that statement keeps the lock for the
/// session and returns the row; the body decides again on it and a second statement writes,
/// notifies, lets the lock go and commits. A transaction that must not wait (`waits: false`),
/// one with nothing to go on, and the next four updates of a key after its guess missed (other
/// writers are changing it: a guess would miss again) take the lock and read the row first. No
/// decision is committed on bytes the row no longer holds, and the next holder of the key reads
/// what was committed. A reader never waits: it reads the last committed row. A session that keeps the key between two
/// statements is ended by the server once it has sat idle with it for twice
/// ``Options/lockTimeout``, at least 10 s (PostgreSQL 14 and later): a writer whose machine left
/// the network holds the key no longer.
///
/// ## When a commit is on disk
/// A write made after taking the key and reading the row — the second statement of an update
/// whose guess missed, and every write of a transaction that must not wait or had nothing to
/// guess from — commits, lets the key go and sends its notification as soon as the change is
/// visible, then waits until the commit is on disk (and on the synchronous replicas the server
/// waits for) before it answers: the writers waiting for the key do not wait for its flush too.
/// So another writer may decide on a change whose flush is still under way, and a reader or a
/// follower may see it; none of them can commit anything that outlives the change, since their
/// commits come after it in the server's log. A write on a guess commits the ordinary way, in
/// one transaction, visible once on disk. Either way a transaction returns only once its commit
/// is on disk. Were the server to crash before that, the change would be lost, and so would what
/// other instances decided on it; its writer, which never heard back, finds by the commit id that
/// the change was not made.
///
/// ## When the connection drops
/// Nothing done before the write is lost by starting over. When the connection drops while the
/// write commits, the storage connects again and looks for its commit id: found, the transaction
/// is done. Not found, it waits for the key's lock (which the server lets go only once the old
/// session has ended) and looks again: not found then, the transaction runs again. Only when the database stays out of reach for
/// ``Options/reachTimeout`` does it throw `StorageError.commitOutcomeUnknown`.
public final class PostgresStorage: AsyncStoreStorage, Service {
    /// How the storage uses its database, beyond the connection.
    public struct Options: Sendable {
        /// The table that holds the documents: letters, digits and underscores, starting with a
        /// letter or an underscore, at most 48 characters. Made on first use when missing; a
        /// table of this name that the library did not make (another app's) is left as it is,
        /// and every call fails naming it.
        public var table: String
        /// How long a transaction that waits for a key held by another writer waits, at most,
        /// before it throws `StorageError.lockTimedOut`. 1 ms to 1 hour. A session of this
        /// storage that keeps a key idle for twice as long (at least 10 s) is ended by the server.
        public var lockTimeout: Duration
        /// How long a call tries to reach the database (connecting again after a drop) before it
        /// throws `StorageError.backendUnreachable`. 100 ms to 1 hour.
        public var reachTimeout: Duration

        /// Options with the given values; the defaults suit most services.
        public init(
            table: String = "singleton_stores", lockTimeout: Duration = .seconds(5), reachTimeout: Duration = .seconds(15)
        ) {
            self.table = table
            self.lockTimeout = lockTimeout
            self.reachTimeout = reachTimeout
        }
    }

    /// The options the storage was made with.
    public let options: Options
    /// What this storage is, as errors name it: "PostgreSQL at HOST:PORT/DATABASE, table TABLE".
    /// It never holds the password.
    public let description: String

    let client: PostgresClient
    let username: String
    let password: String?
    let identity = UUID()
    let endpoint: Endpoint
    let listener: Listener
    let setUp = Mutex<SetUpState>(.notYet)
    let runState = Mutex<Bool>(false)
    let counters = Mutex<RoundTrips>(RoundTrips())
    let known = Mutex<KnownDocuments>(KnownDocuments())
    let parkedLease = ParkedLease()
    /// How long, in milliseconds, the server lets a session of this storage keep a key idle.
    let holdMilliseconds: Int32

    /// A storage on the database `configuration` reaches (its TLS settings included).
    ///
    /// - Throws: `StorageError.invalidKey` naming the table when ``Options/table``
    ///   is not a plain identifier, or `backendUnreachable` when a timeout is out of range.
    public init(
        configuration: PostgresClient.Configuration, options: Options = Options(),
        logger: Logger = Logger(label: "SingletonStoresPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(StorageError) {
        let table = try Self.validTable(options.table)
        let endpoint = Endpoint(configuration: configuration, table: table)
        guard Self.inRange(options.lockTimeout, from: .milliseconds(1)),
            Self.inRange(options.reachTimeout, from: .milliseconds(100))
        else {
            throw .backendUnreachable(
                backend: endpoint.description,
                reason: "lockTimeout must be 1 ms to 1 hour and reachTimeout 100 ms to 1 hour; nothing was connected")
        }
        var configuration = configuration
        // The lock timeout is the server's own: a transaction waiting for a key waits in the
        // server, never on a thread here.
        let milliseconds = SQL.milliseconds(options.lockTimeout)
        // Every wait of the storage's statements is a lock's, bounded by the lock timeout: a role's
        // statement timeout does not apply to them (a shorter one would cut a wait for a key short,
        // as a cancelled statement).
        let settings = [("lock_timeout", "\(milliseconds)"), ("statement_timeout", "0")]
        configuration.options.additionalStartupParameters.removeAll { parameter in settings.contains { $0.0 == parameter.0 } }
        configuration.options.additionalStartupParameters += settings
        // A session that keeps a key idle for longer than twice the lock timeout (at least 10 s)
        // is ended by the server (see `SQL.setUp`): a writer whose machine left the network holds
        // the key that long, not until TCP notices hours later. A decision that takes longer loses
        // the key and is made again.
        self.holdMilliseconds = Int32(clamping: max(10_000, 2 * milliseconds))
        configuration.options.maximumConnections = max(configuration.options.maximumConnections, 2)
        self.options = options
        self.username = configuration.username
        self.password = configuration.password
        self.endpoint = endpoint
        self.description = endpoint.description
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.listener = Listener(channel: table)
    }

    /// A storage on the database a `postgres://` URL names:
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
    ///
    /// `sslmode` defaults to `prefer` (TLS when the server offers it). For certificates of your
    /// own, make a `PostgresClient.Configuration` and use ``init(configuration:options:logger:)``.
    ///
    /// - Throws: `backendUnreachable` saying what is wrong with the URL (never repeating its
    ///   password), or what ``init(configuration:options:logger:)`` throws.
    public convenience init(
        url: String, options: Options = Options(),
        logger: Logger = Logger(label: "SingletonStoresPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(StorageError) {
        try self.init(configuration: PostgresURL.configuration(url), options: options, logger: logger)
    }

    /// Runs the storage: its connection pool and the connection that listens for other writers'
    /// commits, until the task is cancelled or, in a `ServiceGroup`, the group shuts down
    /// gracefully. Calls made while it does not run wait for it, up to ``Options/reachTimeout``.
    /// A storage runs once: a second call returns at once.
    public func run() async {
        let first = runState.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        guard first else { return }
        await cancelWhenGracefulShutdown {
            await withTaskCancellationHandler {
                await withDiscardingTaskGroup { group in
                    group.addTask { await self.client.run() }
                    group.addTask { await self.listen() }
                }
            } onCancel: {
                // The pool shuts down once every connection is back.
                self.parkedLease.close()
            }
        }
        parkedLease.close()
        listener.stopAll()
    }

    /// Round trips to the server so far: of all calls, and of the last transaction that
    /// committed a change (1 for an update decided on the row as this storage last saw it, 2 when
    /// another storage had changed it since; more for one that had to start over).
    public var roundTrips: (total: Int, lastCommit: Int) {
        counters.withLock { ($0.total, $0.lastCommit) }
    }

    // MARK: Helpers

    /// Connections leased from the pool so far: a call that takes the kept one leases none.
    package var poolLeases: Int { counters.withLock { $0.leases } }

    /// Whether the connection kept between calls has closed; `nil` when none is kept.
    package var keptConnectionIsClosed: Bool? { parkedLease.keptConnectionIsClosed }

    /// Reads after a watch answered from a notification, without a round trip.
    package var answeredFromNotifications: Int { counters.withLock { $0.heard } }

    /// Whether the storage's listening connection listens now (its watches have been called
    /// once since it began): for tests that must not miss a commit's notification.
    package var isListening: Bool { listener.state.withLock { $0.listening } }

    struct RoundTrips {
        var total = 0
        var lastCommit = 0
        var leases = 0
        var heard = 0
    }

    /// What this storage last read or committed of each key: the guess a transaction decides on
    /// in one round trip, which the server checks against the row under the key's lock. Small
    /// documents only, and a bounded number of keys: a guess missing costs the lock-and-read
    /// round trip a guess saves.
    package struct KnownDocuments {
        package enum Known: Equatable {
            case absent
            case bytes(Data)
        }

        static let largestDocument = 64 * 1024
        static let keys = 128

        /// Updates after a missed guess that take the lock and read instead of guessing: while
        /// other writers change a key between this storage's updates, a guess would miss again,
        /// and sending it costs a decision and the document's bytes for nothing.
        static let guessesSkippedAfterAMiss = 4

        package init() {}

        private var documents: [String: Known] = [:]
        private var skippedGuesses: [String: Int] = [:]

        /// What to decide on before the key is held: what this storage last read or committed of
        /// the row; `nil` when it knows nothing, or while guesses of the key are skipped.
        package mutating func guess(_ key: String) -> Known? {
            if let skipped = skippedGuesses[key] {
                skippedGuesses[key] = skipped > 1 ? skipped - 1 : nil
                return nil
            }
            return documents[key]
        }

        /// A guess of `key` missed: the next ``guessesSkippedAfterAMiss`` updates take the lock
        /// and read first.
        package mutating func missed(_ key: String) {
            if skippedGuesses[key] == nil, skippedGuesses.count >= Self.keys { skippedGuesses.removeAll(keepingCapacity: true) }
            skippedGuesses[key] = Self.guessesSkippedAfterAMiss
        }

        /// Remembers what the row of `key` holds (`nil`: no row) as of its commit numbered
        /// `version`. Bytes of an older commit than one this storage already knows of — a read
        /// that crossed a newer commit's notification — are not kept: they would be a guess
        /// bound to miss.
        package mutating func remember(_ key: String, _ bytes: Data?, version: Int64?) {
            if let version, let newest = newest(key), version < newest { return }
            saw(key, version: version)
            guard let bytes else {
                remember(key, .absent, version: version)
                return
            }
            guard bytes.count <= Self.largestDocument else {
                forget(key)
                return
            }
            remember(key, .bytes(bytes), version: version)
        }

        package mutating func forget(_ key: String) {
            documents[key] = nil
            documentVersions[key] = nil
        }

        private mutating func remember(_ key: String, _ known: Known, version: Int64?) {
            if documents[key] == nil, documents.count >= Self.keys {
                documents.removeAll(keepingCapacity: true)
                documentVersions.removeAll(keepingCapacity: true)
            }
            documents[key] = known
            documentVersions[key] = version
        }

        /// The newest commit of `key` this storage knows of, by what it saw or remembered.
        private func newest(_ key: String) -> Int64? {
            switch (versions[key], documentVersions[key]) {
            case (let seen?, let remembered?): max(seen, remembered)
            case (let seen?, nil): seen
            case (nil, let remembered): remembered
            }
        }

        // MARK: Notifications that carry the document

        /// The number of the newest commit of each key this storage read, made, or answered
        /// from a notification: a notification of an older commit is never answered from.
        private var versions: [String: Int64] = [:]
        /// The number of the commit each remembered document is of, when known.
        private var documentVersions: [String: Int64] = [:]
        /// What the last notification of another storage's commit carried, per key, until a
        /// read after it answers from it.
        private var heard: [String: (version: Int64, document: Data)] = [:]
        /// The newest commit of each key announced since the listening connection last began.
        private var announced: [String: Int64] = [:]

        /// This storage read or made the commit numbered `version` of `key` (`nil`: no row, or
        /// a table made before commits were numbered).
        package mutating func saw(_ key: String, version: Int64?) {
            guard let version else { return }
            if versions[key] == nil, versions.count >= Self.keys {
                versions.removeAll(keepingCapacity: true)
                heard.removeAll()
            }
            versions[key] = max(versions[key] ?? version, version)
        }

        /// Another storage's commit was heard. Kept when it is newer than anything this storage
        /// saw of a key it has read, and carried the document; a newer one without its document
        /// makes an older one heard before useless. The guess is what it carried.
        package mutating func hear(_ notice: Listener.Notice) {
            if announced[notice.key] == nil, announced.count >= Self.keys { announced.removeAll(keepingCapacity: true) }
            announced[notice.key] = max(announced[notice.key] ?? notice.version, notice.version)
            guard let seen = versions[notice.key], notice.version > seen else { return }
            guard let document = notice.document, document.count <= Self.largestDocument else {
                heard[notice.key] = nil
                return
            }
            heard[notice.key] = (notice.version, document)
            remember(notice.key, .bytes(document), version: notice.version)
        }

        /// The document of `key` as the notifications heard say it is, without a round trip:
        /// what the last one carried, once, when it is newer than anything this storage saw of
        /// the key since; or, when no commit newer than the one this storage last read or made
        /// was announced since the listening connection began, the document it remembers of
        /// that commit (a read of its own crossed the notification, and took in the change).
        /// `nil`: the row has to be read.
        package mutating func takeHeard(_ key: String) -> Data? {
            if let entry = heard.removeValue(forKey: key), let seen = versions[key], entry.version > seen {
                versions[key] = entry.version
                remember(key, .bytes(entry.document), version: entry.version)
                return entry.document
            }
            guard let seen = versions[key], let last = announced[key], last <= seen, documentVersions[key] == seen,
                case .bytes(let document)? = documents[key]
            else { return nil }
            return document
        }

        /// Notifications may have been missed: nothing heard before is answered from.
        package mutating func forgetHeard() {
            heard.removeAll()
            announced.removeAll()
        }
    }

    enum SetUpState {
        case notYet
        case done
    }

    static func inRange(_ duration: Duration, from least: Duration) -> Bool {
        duration >= least && duration <= .seconds(3600)
    }

    static func validTable(_ table: String) throws(StorageError) -> String {
        let scalars = table.unicodeScalars
        let valid =
            !scalars.isEmpty && scalars.count <= 48
            && scalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
            }
            && !(scalars.first.map { $0 >= "0" && $0 <= "9" } ?? true)
        guard valid else {
            throw .invalidKey(
                table.debugDescription,
                reason: "a table name is 1 to 48 letters, digits and underscores, not starting with a digit")
        }
        return table.lowercased()
    }
}

/// Where a storage connects, as it is shown: never with the password.
struct Endpoint: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let database: String
    let table: String
    /// The locations made so far, by key: every read and write hands one to the store, and
    /// making a URL costs more than the rest of the storage's own work on an update.
    private let locations = Locations()

    init(configuration: PostgresClient.Configuration, table: String) {
        host = configuration.host ?? configuration.unixSocketPath ?? "?"
        port = configuration.port ?? 5432
        database = configuration.database ?? configuration.username
        self.table = table
    }

    /// The host a probe connects to over TCP; `nil` for a Unix socket.
    var hostForProbe: String? { host.contains("/") ? nil : host }

    var description: String { "PostgreSQL at \(host):\(port)/\(database), table \(table)" }

    /// The location of a document as errors and `StoredBytes` give it.
    func location(_ key: String) -> URL {
        if let known = locations.urls.withLock({ $0[key] }) { return known }
        var components = URLComponents()
        components.scheme = "postgres"
        components.host = hostForProbe ?? "localhost"
        components.port = port
        components.path = "/\(database)/\(table)/\(key)"
        let url = components.url ?? URL(filePath: "/\(database)/\(table)/\(key)")
        locations.urls.withLock { urls in
            // A storage of very many keys keeps the most recent ones; the rest are made again.
            if urls.count >= Locations.limit { urls.removeAll(keepingCapacity: true) }
            urls[key] = url
        }
        return url
    }

    final class Locations: Sendable {
        static let limit = 1024
        let urls = Mutex<[String: URL]>([:])
    }
}

extension PostgresStorage {
    /// The number of the advisory lock that holds `key` of `table`, for tools that take it by
    /// hand (to hold a key while a migration of one's own runs, say): `SELECT pg_advisory_lock(N)`.
    public static func lockKey(table: String, key: String) -> Int64 {
        SQL.lockKey(table: table.lowercased(), key: key)
    }
}
