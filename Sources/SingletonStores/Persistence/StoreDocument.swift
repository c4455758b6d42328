/// A document a store keeps in a ``StoreStorage``, named once: its key, the value it holds when
/// there is none, and the ``DocumentMigrations`` from older versions of that value, if it has any.
///
/// Say it once, beside the value, and hand it to the store or the storage:
///
/// ```swift
/// struct ReaderSettings: Codable, Sendable, Equatable {
///     static let document = StoreDocument(key: "reader-settings", default: ReaderSettings())
///     var fontSize = 14.0
/// }
///
/// func readerSettings(in storage: any StoreStorage) -> ValueStore<ReaderSettings> {
///     ValueStore(ReaderSettings.document, storage: storage)
/// }
/// ```
///
/// The key names the document's files (`<key>.json`): 1–120 letters, digits, `.`, `_` or `-`,
/// not starting with a dot. It is checked once, here; a document with an invalid key can still
/// be made (so that a `static let` never traps), and every use of it throws
/// ``StorageError/invalidKey(_:reason:)``, as a storage always has.
///
/// A document also says which store it belongs to, its ``identity``: the name of the value's
/// type (`"ReaderSettings"`) unless you give one. Every document a storage of files writes
/// records it, and a store of another identity never reads, moves or overwrites it: it is
/// refused with ``StorageError/documentOfAnotherStore(file:owner:store:)``. Give the identity
/// when you rename the value's type, so that the documents already saved stay the store's:
///
/// ```swift
/// static let document = StoreDocument(key: "reader-settings", default: ReaderPreferences(), identity: "ReaderSettings")
/// ```
public struct StoreDocument<Value: Codable & Sendable>: Sendable {
    /// The document's name in its storage, such as `"settings"`.
    public let key: String

    /// The value when there is no usable document.
    public let defaultValue: Value

    /// The value's current version and the steps from each older one; `nil` for a value whose
    /// shape has not changed in a way its `Codable` conformance can't absorb.
    public let migrations: DocumentMigrations<Value>?

    /// Which store the document belongs to: what a document written for it records, and what a
    /// store must be to read or write a document that records one. The name of `Value`'s type
    /// (without its module, so that a file compiled into an app and into its widget names one
    /// store), unless the initializer was given another.
    public let identity: String

    /// Why ``key`` is not a valid key, found when the document was made; `nil` when it is valid.
    let keyProblem: StorageError?

    /// A document named `key`.
    ///
    /// - Parameters:
    ///   - key: The document's name: 1–120 letters, digits, `.`, `_` or `-`.
    ///   - defaultValue: The value when there is no usable document.
    ///   - migrations: The value's current version and the steps from each older one, if its
    ///     shape has changed between versions of the app (see ``DocumentMigrations``).
    ///   - identity: Which store the document belongs to; `nil` for the name of `Value`'s type.
    ///     Give the old name when you rename the type, so that saved documents stay this store's.
    public init(
        key: String, default defaultValue: Value, migrations: DocumentMigrations<Value>? = nil, identity: String? = nil
    ) {
        self.key = key
        self.defaultValue = defaultValue
        self.migrations = migrations
        self.identity = identity ?? Self.typeIdentity
        self.keyProblem = StorageKey.problem(with: key).map { .invalidKey(key, reason: $0) }
    }

    /// The identity of a document given none: the name of `Value`'s type, without its module
    /// (`"ReaderSettings"`, `"Array<Receipt>"`).
    static var typeIdentity: String { String(describing: Value.self) }

    /// The ``key``, checked: the storages' document layer calls this before it uses the key (a
    /// storage of your own checks the keys it is given with ``StoreStorage/validKey(_:)``).
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` when the key is not a valid name.
    package func validKey() throws(StorageError) -> String {
        if let keyProblem { throw keyProblem }
        return key
    }

    /// The same document, starting from `value` when there is none (a store following its
    /// document keeps its current state rather than go back to the default).
    func starting(from value: Value) -> StoreDocument {
        StoreDocument(key: key, defaultValue: value, migrations: migrations, identity: identity, keyProblem: keyProblem)
    }

    private init(
        key: String, defaultValue: Value, migrations: DocumentMigrations<Value>?, identity: String, keyProblem: StorageError?
    ) {
        self.key = key
        self.defaultValue = defaultValue
        self.migrations = migrations
        self.identity = identity
        self.keyProblem = keyProblem
    }
}
