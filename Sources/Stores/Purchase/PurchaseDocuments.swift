import SingletonStores

/// The purchase documents, each named once: its key, its default value and its migrations.
enum PurchaseDocuments {
    /// The ledger every count is derived from, `purchases`: ``PurchaseManager`` keeps it, and
    /// the boost spends items from it under its lock.
    static let ledger = StoreDocument(
        key: "purchases", default: PurchaseLedger(), migrations: PurchaseDocumentMigrations.ledger)

    /// The local backend's receipts, `receipts`, each with its mark of credit; read as plain
    /// receipts too (`[PurchaseReceipt]`), so its identity names the document, not a type.
    static let storedReceipts = StoreDocument(
        key: LocalPurchaseBackend.key, default: [StoredReceipt](), migrations: PurchaseDocumentMigrations.storedReceipts,
        identity: "PurchaseReceipts")
}
