import Foundation

/// The disk side of a countdown store: reads its document together with the newest grant of
/// the document whose item spends start it (if any), and changes it under the document's lock.
///
/// Every decision another process could race — is a countdown running? may this item start
/// one? — is taken inside ``transaction(waits:_:)``, from what is on disk at that moment.
struct CountdownJournal: Sendable {
    /// The countdown's document.
    let key: String
    /// Where the grants that start this countdown too are read; `nil` for none.
    let grants: CountdownGrants?
    let storage: any StoreStorage
    let reportIssue: @Sendable (StoreIssue) -> Void

    /// The countdown's document: no countdown until one is written.
    private var document: StoreDocument<CountdownRecord> { StoreDocument(key: key, default: .none) }

    /// The record as it stands now, grants included, read without locking (documents are
    /// replaced atomically). When the document cannot be read, the newest grant's countdown, or
    /// `.none`; problems are reported.
    func current() -> CountdownRecord {
        do {
            let loaded = try storage.load(document)
            if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
            return loaded.value.merging(try latestGrant())
        } catch {
            reportIssue(.storageRecovered(error))
            // The countdown an item paid for still shows, from its grant.
            return CountdownRecord.none.merging(try? latestGrant())
        }
    }

    /// Runs `body` on the record as it is on disk (grants included) while holding the
    /// document's lock, and writes the record back if `body` changed it.
    ///
    /// `body` may spend an item in the grants' document (whose lock is always taken after this
    /// one); it is also given the id of the newest grant on disk when the record was read
    /// (`nil` for none), for the spend to check under that document's lock. It must not post
    /// or call observers: the lock is held.
    ///
    /// - Parameter waits: Whether to wait (up to the storage's lock timeout) while another
    ///   process holds the lock; when `false` and it does, `body` does not run and the result
    ///   is `nil`.
    func transaction<Outcome>(
        waits: Bool = true,
        _ body: (inout CountdownRecord, _ latestGrantID: String?) throws(StorageError) -> Outcome
    ) throws(StorageError) -> Outcome? {
        let merged = { (record: inout CountdownRecord) throws(StorageError) -> Outcome in
            let grant = try latestGrant()
            record = record.merging(grant)
            return try body(&record, grant?.id)
        }
        let committed =
            waits
            ? try storage.update(document, merged)
            : try storage.updateIfAvailable(document, merged)
        guard let committed else { return nil }
        if let problem = committed.recovery { reportIssue(.storageRecovered(problem)) }
        return committed.outcome
    }

    /// The newest grant on disk; `nil` when this countdown reads none.
    private func latestGrant() throws(StorageError) -> CountdownGrant? {
        try grants?.latest()
    }
}
