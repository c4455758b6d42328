import Foundation
import StoreObservation

/// A store that is just a value: persisted, observable, safe across threads and processes, and
/// replaceable in tests — declared in a few lines, with no contract, channel or stub to write.
///
/// ```swift
/// struct Session: Codable, Sendable, Equatable { var token = ""; var userID: String? }
///
/// enum SessionKey: ProductionStoreKey {
///     static let productionValue = ValueStore(key: "session", default: Session())
///     static var stubValue: ValueStore<Session> { ValueStore(stub: Session()) }
/// }
/// extension StoreValues {
///     var session: ValueStore<Session> { get { self[SessionKey.self] } set { self[SessionKey.self] = newValue } }
/// }
/// ```
///
/// App code reads ``value`` and changes it with `update(_:)`; screens observe it with Swift
/// Observation (a SwiftUI `body` that reads ``value`` redraws on every change) or
/// ``observe(on:_:)``; a test gives it a stub of its own:
///
/// ```swift
/// try StoreValues.current.session.update { $0.token = "t-1" }
///
/// withStores { $0.session = ValueStore(stub: Session(token: "t-2")) } operation: {
///     #expect(StoreValues.current.session.value.token == "t-2")
/// }
/// ```
///
/// A persisted value store is a ``PersistentStoreCore`` on a document of its own, with every
/// guarantee it gives; its stub (``init(stub:center:)``) changes, posts and takes part in
/// Observation like the real one. A value whose shape changes between versions of the app takes a
/// ``StoreDocument`` with ``DocumentMigrations`` (``init(_:storage:center:watching:writePolicy:reportIssue:)``).
/// `update` throws ``StorageError``, or the store's own error for a refusal (see <doc:Errors>).
/// <doc:GettingStarted> starts with a value store, and says when a store is better written as a
/// contract with intent methods.
public final class ValueStore<Value: Codable & Sendable & Equatable>: Sendable {
    /// The store's engine; visible to inlined reads of ``value``.
    @usableFromInline let core: PersistentStoreCore<Value>

    /// The channel every committed change is posted on, named after the document:
    /// `SingletonStores.ValueStore.<key>` (its `name` is what classic observers use).
    public let channel: NotificationChannel<StoreChange<Value>>

    /// The notification center changes are posted to.
    public let center: NotificationCenter

    /// A value store on `document` in `storage`, loaded now.
    ///
    /// ```swift
    /// struct SessionV1: Codable { var token: String; var user: String }
    /// struct Session: Codable, Sendable, Equatable { var token = ""; var userID = "" }
    ///
    /// let session = ValueStore(
    ///     StoreDocument(key: "session", default: Session(), migrations: DocumentMigrations(version: 2)
    ///         .step(from: 1) { (old: SessionV1) in Session(token: old.token, userID: old.user) }))
    /// ```
    ///
    /// When the document has ``StoreDocument/migrations``, every document the store writes
    /// records their version; a document of an older version is backed up and migrated (see
    /// ``DocumentMigrations``), and one that can't be is left in place, reported, and never
    /// overwritten.
    ///
    /// - Parameters:
    ///   - document: The document: its key, the value when there is no usable document, and
    ///     its migrations, if any.
    ///   - storage: Where the document lives; the app's data folder by default.
    ///   - center: Where changes are posted; `.default` by default.
    ///   - watching: How the store follows versions other processes write (see
    ///     ``StorageWatching``); file events or a poll by default.
    ///   - writePolicy: When ``set(_:)`` reaches the disk: at once by default, or at most once
    ///     per window with ``StoreWritePolicy/coalescing(within:clock:)`` (a slider's value).
    ///   - reportIssue: Receives storage problems, and a coalesced write that failed; prints to
    ///     standard error by default.
    public init(
        _ document: StoreDocument<Value>,
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        writePolicy: StoreWritePolicy = .immediate,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        channel = NotificationChannel("SingletonStores.ValueStore.\(document.key)")
        self.center = center
        core = PersistentStoreCore(
            document, storage: storage, channel: channel, center: center, watching: watching,
            writePolicy: writePolicy, reportIssue: reportIssue)
    }

    /// A value store on the document `key` of `storage`, loaded now: the store of
    /// ``init(_:storage:center:watching:writePolicy:reportIssue:)`` on `StoreDocument(key: key, default: defaultValue)`.
    ///
    /// - Parameters:
    ///   - key: The document's name: 1–120 letters, digits, `.`, `_` or `-`.
    ///   - defaultValue: The value when there is no usable document.
    ///   - storage: Where the document lives; the app's data folder by default.
    ///   - center: Where changes are posted; `.default` by default.
    ///   - watching: How the store follows versions other processes write (see
    ///     ``StorageWatching``); file events or a poll by default.
    ///   - writePolicy: When ``set(_:)`` reaches the disk: at once by default, or at most once
    ///     per window with ``StoreWritePolicy/coalescing(within:clock:)`` (a slider's value).
    ///   - reportIssue: Receives storage problems, and a coalesced write that failed; prints to
    ///     standard error by default.
    public convenience init(
        key: String, default defaultValue: Value, storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default, watching: StorageWatching = .automatic,
        writePolicy: StoreWritePolicy = .immediate,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        self.init(
            StoreDocument(key: key, default: defaultValue), storage: storage, center: center, watching: watching,
            writePolicy: writePolicy, reportIssue: reportIssue)
    }

    /// A stub for tests and previews: the same store, holding `value` in memory. It changes,
    /// refuses, posts and takes part in Swift Observation like the persisted one.
    ///
    /// It keeps the value as it is, without encoding it, so a change costs what a change of an
    /// in-memory store costs. To test how a value is stored, give a store an
    /// ``InMemoryStorage`` (which keeps the encoded document) or a ``FileStorage`` in a
    /// temporary folder.
    ///
    /// - Parameters:
    ///   - value: The value it starts with.
    ///   - center: Where its changes are posted: a center of its own by default, so that tests
    ///     running in parallel never see each other's posts. Pass the center a test observes.
    public convenience init(stub value: Value, center: NotificationCenter = NotificationCenter()) {
        let channel = NotificationChannel<StoreChange<Value>>("SingletonStores.ValueStore.stub")
        self.init(
            channel: channel, center: center,
            core: PersistentStoreCore(inMemory: value, key: "stub", channel: channel, center: center))
    }

    /// A value store on `core`, which posts on `channel` to `center`.
    private init(
        channel: NotificationChannel<StoreChange<Value>>, center: NotificationCenter, core: PersistentStoreCore<Value>
    ) {
        self.channel = channel
        self.center = center
        self.core = core
    }

    /// The current value. Reading it inside `withObservationTracking` (a SwiftUI `body`)
    /// registers a dependency on every change.
    @inlinable public var value: Value { core.state }

    /// The problem found when the document was loaded, if it had to be kept aside; `nil` when
    /// it loaded cleanly or did not exist.
    public var loadProblem: StorageError? { core.loadProblem }

    /// Changes the value as one transaction — on disk, then in memory — and posts the change.
    /// Throw from `body` to refuse it: then nothing changes.
    ///
    /// A body that throws nothing (`try session.update { $0.token = "t-1" }`) makes `update`
    /// throw ``StorageError``. A body that throws an error of the store's own — a
    /// ``StoreFailure``, named in the closure's signature, as in
    /// `{ (balance: inout Int) throws(WalletError) in … }` — makes it throw that error, with a
    /// document that could not be written as its `storage` case (see <doc:Errors>).
    ///
    /// - Parameter body: The change, applied to the value as it is on disk now. It runs under
    ///   the store's lock: it must not post, call observers or touch other stores.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` threw, or `Failure.storage(_:)` with the ``StorageError`` when the
    ///   document could not be written; either way nothing changed.
    @discardableResult
    public func update<Result, Failure: StoreFailure>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure.Thrown) -> Result {
        try core.update(body)
    }

    /// Changes the value as one transaction, as the typed form above does, with a body that
    /// throws any error: `update` throws that error as it was thrown, or the ``StorageError`` of a
    /// document that could not be written; either way nothing changed.
    ///
    /// ```swift
    /// try settings.update { settings in
    ///     guard !settings.isLocked else { throw SettingsLocked() }  // any Error
    ///     settings.fontSize = 18
    /// }
    /// ```
    ///
    /// Swift picks this form for a body whose error is not a ``StoreFailure`` (a closure that
    /// throws is `throws(any Error)` unless it names its error); a body that throws nothing or
    /// names a ``StoreFailure`` gets the typed form.
    ///
    /// - Parameter body: The change, applied to the value as it is on disk now. It runs under
    ///   the store's lock: it must not post, call observers or touch other stores.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` threw, or the ``StorageError`` of a document that could not be written.
    @_disfavoredOverload
    @discardableResult
    public func update<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
        try core.update { (value: inout Value) throws(UntypedStoreFailure) -> Result in
            try UntypedStoreFailure.run(body, on: &value)
        }
    }

    /// Replaces the value, posting the change if it differs.
    ///
    /// With the coalescing ``writePolicy``, the value changes and is posted at once and reaches
    /// the disk by the end of the window (see ``StoreWritePolicy``); a write that fails then is
    /// reported to `reportIssue` and the store goes back to the value on disk.
    ///
    /// - Throws: ``StorageError`` when the document could not be written (with the coalescing
    ///   policy, only when the store may not use its document at all); then nothing changed.
    public func set(_ newValue: Value) throws(StorageError) {
        try core.set(newValue)
    }

    /// When ``set(_:)`` reaches the disk: at once, or at most once per window.
    public var writePolicy: StoreWritePolicy { core.writePolicy }

    /// Writes the value ``set(_:)`` left pending now, instead of at the end of its window; does
    /// nothing when none is (always, with the immediate ``writePolicy``).
    ///
    /// Call it when the app is about to be suspended or exits: a process killed inside a window
    /// loses the values set within it (see ``StoreWritePolicy``).
    ///
    /// - Throws: ``StorageError`` when the value could not be written: then the store has gone
    ///   back to the value on disk, posting the change.
    public func flush() throws(StorageError) {
        try core.flush()
    }

    /// Calls `handler` with every change this store commits, until the token is cancelled.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each committed change.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<Value>) -> Void
    ) -> ObservationToken {
        core.observe(on: delivery, handler)
    }

    /// The changes this store commits, as an asynchronous sequence.
    ///
    /// - Parameter buffering: What to keep while the consumer is busy.
    public func changes(
        buffering: NotificationChannel<StoreChange<Value>>.Buffering = .newest(1)
    ) -> AsyncStream<StoreChange<Value>> {
        core.changes(buffering: buffering)
    }
}
