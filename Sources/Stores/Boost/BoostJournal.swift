import Foundation
import SingletonStores

/// The disk side of a countdown store: reads its document together with the newest boost grant
/// in the purchase ledger (for the boost, whose items start it), and changes it under the
/// document's lock.
///
/// Every decision another process could race — is a boost running? may this item start one? —
/// is taken inside ``transaction(_:)``, from what is on disk at that moment.
struct BoostJournal: Sendable {
    /// The boost document's key.
    static let boostKey = "boost"
    /// The purchase ledger's key, read for the boost's grants.
    static let ledgerKey = PurchaseDocuments.ledger.key

    /// The countdown's document.
    let key: String
    /// The ledger whose newest grant starts this countdown too; `nil` for none.
    let grantsKey: String?
    let storage: any StoreStorage
    let reportIssue: @Sendable (StoreIssue) -> Void

    /// The countdown's document: no countdown until one is written.
    private var document: StoreDocument<BoostRecord> { StoreDocument(key: key, default: .none) }

    /// The record as it stands now, grants included, read without locking (documents are
    /// replaced atomically). `.none` when it cannot be read; problems are reported.
    func current() -> BoostRecord {
        do {
            let loaded = try storage.load(document)
            if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
            return loaded.value.merging(try latestGrant())
        } catch {
            reportIssue(.storageRecovered(error))
            return .none
        }
    }

    /// Runs `body` on the record as it is on disk (grants included) while holding the boost
    /// document's lock, and writes the record back if `body` changed it.
    ///
    /// `body` may spend an item in the ledger (the `purchases` key is always taken after the
    /// `boost` key); it is also given the id of the newest grant the ledger held when the record
    /// was read (`nil` for none), for the spend to check under the ledger's lock. It must not
    /// post or call observers: the lock is held.
    ///
    /// - Parameter waits: Whether to wait (up to the storage's lock timeout) while another
    ///   process holds the lock; when `false` and it does, `body` does not run and the result
    ///   is `nil`.
    func transaction<Outcome>(
        waits: Bool = true,
        _ body: (inout BoostRecord, _ latestGrantID: String?) throws(StorageError) -> Outcome
    ) throws(StorageError) -> Outcome? {
        let merged = { (record: inout BoostRecord) throws(StorageError) -> Outcome in
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

    /// The newest grant in the ledger on disk; `nil` when this countdown reads none.
    private func latestGrant() throws(StorageError) -> BoostGrant? {
        guard let grantsKey else { return nil }
        let ledger = try storage.load(
            StoreDocument(
                key: grantsKey, default: PurchaseDocuments.ledger.defaultValue, migrations: PurchaseDocuments.ledger.migrations))
        if let problem = ledger.recovery { reportIssue(.storageRecovered(problem)) }
        return ledger.value.latestBoostGrant
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
