import SingletonStores

extension StoreIssue {
    /// An item was spent on a boost (or a countdown of your own), and the boost runs, but its
    /// own document could not be written afterwards (the disk is full, its lock is held…).
    ///
    /// Nothing is lost and nothing needs doing: the ledger entry that spent the item records
    /// the boost — its end, on the wall clock and on the boot time line, and its length — and
    /// every process and every later launch shows the boost from there, as if the document had
    /// been written. The next change of the boost writes the document again.
    /// ``BoostTimeManager`` and `CountdownStore` report it from an item use, which then
    /// succeeds.
    ///
    /// - Parameters:
    ///   - key: The countdown's document (`boost` for the boost).
    ///   - error: Why the document could not be written.
    public static func countdownRunsFromItsGrant(key: String, _ error: StorageError) -> StoreIssue {
        .unusableStoredValue(
            key: key,
            message: "it could not be written after an item was spent on the \(key) (\(error.errorDescription ?? "\(error)")) "
                + "The item was spent and the \(key) runs: the purchases ledger records it, with its end, "
                + "and every launch reads it from there. Nothing needs to be done.")
    }
}
