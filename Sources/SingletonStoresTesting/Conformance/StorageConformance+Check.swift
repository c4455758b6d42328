extension StorageConformance {
    /// One promise of `StoreStorage` that ``StorageConformance/check(sourceLocation:_:)`` checks.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A key that was never written reads as `nil`, and a transaction on it is given `nil`.
        case missingKey
        /// `read`, `transaction` and `watch` throw `StorageError.invalidKey` for an invalid key,
        /// and run no body.
        case invalidKey
        /// Committed bytes read back byte for byte: from `read` and in the next transaction.
        case committedBytes
        /// A body that throws commits nothing, its error comes back, and the key is free again.
        case throwingBody
        /// `DocumentChange.none` leaves the document as it is, and the body's result comes back.
        case noChange
        /// `settingAside` takes the document away from its key and says where it is kept; with
        /// new bytes, the new bytes are there.
        case settingAside
        /// With `waits: false`, a transaction returns `nil` at once, without running its body,
        /// while another thread holds the same key's transaction.
        case busyKey
        /// Transactions of one key from several threads at once lose no update.
        case concurrentTransactions
        /// A transaction of one key can run a transaction of another key inside its body.
        case nestedTransaction
        /// A `Codable` value is saved, loaded and updated through the storage.
        case documents
        /// A document saved at version 1 of its value is migrated to version 2, and stays so.
        case migration
        /// A bad document — bytes that are not a document — is set aside and reported by
        /// `load`, which then starts from the default.
        case badDocument
        /// A commit of a second instance of the storage — another process or machine — is heard
        /// by the first's watch, and `readHeard(_:)` then returns what it committed (a storage
        /// reached with `await`; one whose watch is `nil` passes).
        case watch
        /// While a second instance holds a key, `waits: false` gives up at once and `waits: true`
        /// after a bounded wait, with `StorageError.lockTimedOut` (a storage reached with `await`).
        case lockTimeout

        /// What the check checks, in a few words.
        public var description: String {
            switch self {
            case .missingKey: "a key never written reads as nil"
            case .invalidKey: "an invalid key is refused"
            case .committedBytes: "committed bytes read back byte for byte"
            case .throwingBody: "a body that throws commits nothing"
            case .noChange: "DocumentChange.none changes nothing"
            case .settingAside: "setting a document aside"
            case .busyKey: "waits: false on a busy key"
            case .concurrentTransactions: "concurrent transactions lose no update"
            case .nestedTransaction: "a transaction of another key inside a transaction"
            case .documents: "saving, loading and updating a document"
            case .migration: "migrating a document from version 1 to 2"
            case .badDocument: "a bad document is set aside and reported"
            case .watch: "another instance's commit is heard and then read"
            case .lockTimeout: "waits: true gives up while another instance holds the key"
            }
        }

        /// What to change in the storage when the check fails.
        var fix: String {
            switch self {
            case .missingKey:
                "Return nil from read(_:), and give the transaction's body nil, for a key that holds no document."
            case .invalidKey:
                "Begin read(_:), transaction(_:waits:_:) and watch(forKey:_:onChange:) with `let key = try Self.validKey(key)`."
            case .committedBytes:
                "Keep the DocumentChange's bytes exactly as given, and return them from read(_:) and to the next transaction's body."
            case .throwingBody:
                "Let an error thrown by the body propagate out of transaction(_:waits:_:) before committing anything, and release the key's lock (a `defer` does both)."
            case .noChange:
                "Commit only what the DocumentChange holds: with no bytes, no settingAside and no backup, leave the document as it is."
            case .settingAside:
                "For settingAside, keep the current bytes under another name (never delete them), remove them from the key, return that place as the commit's keptAt, then write the new bytes, if any."
            case .busyKey:
                "Hold a lock per key for the whole transaction, and when `waits` is false and the lock is taken, return nil without running the body."
            case .concurrentTransactions:
                "Hold the key's lock from before the body reads the current bytes until after its change is committed."
            case .nestedTransaction:
                "Lock each key on its own (not one lock for the whole storage), so that a body may run a transaction of another key."
            case .documents, .migration, .badDocument:
                "The document layer works on what read(_:) and transaction(_:waits:_:) give it: fix the checks of the bytes first."
            case .watch:
                "Announce each commit to the other instances (PostgreSQL's NOTIFY in the commit, say) and call onChange when one arrives; readHeard(_:) answers from a notice only when nothing newer is known, else it reads."
            case .lockTimeout:
                "Bound the wait for a key another instance holds (PostgreSQL's lock_timeout, say) and throw StorageError.lockTimedOut past it."
            }
        }
    }
}
