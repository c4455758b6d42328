import SingletonStores

/// The profile's account id is left out of snapshots.
extension UserProfile: SnapshotRedactable {
    /// The profile with its account id replaced by `StoreSnapshot.redacted`.
    public func redactedForSnapshot() -> UserProfile {
        var copy = self
        if copy.id != nil { copy.id = StoreSnapshot.redacted }
        return copy
    }
}

/// Receipt ids are left out of snapshots: counts, dates and boosts stay.
extension PurchaseLedger: SnapshotRedactable {
    /// The ledger with every receipt id replaced by `StoreSnapshot.redacted`.
    public func redactedForSnapshot() -> PurchaseLedger {
        var copy = self
        copy.redactReceiptIDs()
        return copy
    }
}
