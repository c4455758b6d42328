/// What the stores on one data folder show at launch: printed as JSON by
/// `storage-stress report`, read back by the cross-process tests.
package struct StoreReport: Codable, Sendable {
    /// The boost items owned.
    package var items: Int
    /// The seconds the boost shows; 0 when none runs.
    package var boostSeconds: Int
    /// How many ledger entries since its checkpoint spent an item.
    package var usedEntries: Int
    /// How many of those carry the boost they started.
    package var usedEntriesWithGrant: Int
    /// Every receipt id the ledger remembers crediting, once per credit, oldest first: the
    /// newest ones its checkpoint keeps, then those of the entries after it.
    package var creditedReceiptIDs: [String]
    /// Every receipt the local backend holds.
    package var receiptIDs: [String]
    /// Boost items bought, summed over the entries since the checkpoint.
    package var itemsBought: Int
    /// The items the ledger's checkpoint carries (0 without one): bought less used before it.
    package var checkpointBalance: Int
    /// Seconds from now until the newest grant's end (negative when it has passed); `nil`
    /// without one.
    package var newestGrantSecondsLeft: Double?
    /// Problems the stores reported while launching.
    package var problems: [String]

    /// Creates a report.
    package init(
        items: Int, boostSeconds: Int, usedEntries: Int, usedEntriesWithGrant: Int, creditedReceiptIDs: [String],
        receiptIDs: [String], itemsBought: Int, checkpointBalance: Int = 0, newestGrantSecondsLeft: Double?, problems: [String]
    ) {
        self.items = items
        self.boostSeconds = boostSeconds
        self.usedEntries = usedEntries
        self.usedEntriesWithGrant = usedEntriesWithGrant
        self.creditedReceiptIDs = creditedReceiptIDs
        self.receiptIDs = receiptIDs
        self.itemsBought = itemsBought
        self.checkpointBalance = checkpointBalance
        self.newestGrantSecondsLeft = newestGrantSecondsLeft
        self.problems = problems
    }
}
