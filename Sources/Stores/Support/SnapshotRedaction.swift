import SingletonStores

/// The profile's account id and nickname are left out of snapshots.
extension UserProfile: SnapshotRedactable {
    /// The profile with its account id and its nickname (text the user wrote about themselves)
    /// replaced by `StoreSnapshot.redacted`.
    package func redactedForSnapshot() -> UserProfile {
        redactedForSnapshot(keepingPersonalText: false)
    }

    /// The profile with its account id replaced by `StoreSnapshot.redacted`, and its nickname
    /// too unless `keepingPersonalText` (a report the user chose to include it in).
    package func redactedForSnapshot(keepingPersonalText: Bool) -> UserProfile {
        var copy = self
        if copy.id != nil { copy.id = StoreSnapshot.redacted }
        if !keepingPersonalText, !copy.nickname.isEmpty { copy.nickname = StoreSnapshot.redacted }
        return copy
    }
}

/// Receipt ids are left out of snapshots: counts, dates and boosts stay.
extension PurchaseLedger: SnapshotRedactable {
    /// The ledger with every receipt id replaced by `StoreSnapshot.redacted`.
    package func redactedForSnapshot() -> PurchaseLedger {
        var copy = self
        copy.redactReceiptIDs()
        return copy
    }
}
