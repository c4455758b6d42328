import SingletonStores

extension StoreIssue {
    /// Some entries of the stored purchase ledger could not be read. The rest of the ledger
    /// loaded and counts; the unreadable entries are kept in the document unchanged and count
    /// for nothing (see ``PurchaseLedger/unreadableEntries``).
    ///
    /// ``PurchaseManager`` reports it once, when it loads the ledger.
    ///
    /// - Parameters:
    ///   - count: How many entries could not be read.
    ///   - firstReason: Why the first of them could not be read.
    public static func unreadableLedgerEntries(count: Int, firstReason: String) -> StoreIssue {
        .unusableStoredValue(
            key: "purchases",
            message: "\(count) \(count == 1 ? "entry" : "entries") could not be read (\(firstReason)). "
                + "Every other entry loaded and counts; the unreadable "
                + "\(count == 1 ? "one is" : "ones are") kept unchanged under \"unreadableEntries\" and "
                + "\(count == 1 ? "does" : "do") not count. Restore purchases to credit a receipt that is missing.")
    }
}
