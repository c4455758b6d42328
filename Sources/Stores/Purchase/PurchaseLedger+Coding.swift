extension PurchaseLedger {
    /// The keys of a ledger on disk.
    ///
    /// A ledger with no checkpoint is `{"entries": […]}`, as every version wrote it. A
    /// compacted one is `{"checkpoint": {…}, "entriesSinceCheckpoint": […]}`: a version that
    /// knows no checkpoint finds no `entries` in it and keeps the document aside, instead of
    /// reading the recent entries as the whole history and dropping the checkpoint on its next
    /// write.
    private enum CodingKeys: String, CodingKey {
        case entries, checkpoint, entriesSinceCheckpoint
    }

    /// Decodes a ledger, with or without a checkpoint (see ``LedgerCheckpoint``); each entry
    /// and the checkpoint are range-checked.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        if let checkpoint = try container.decodeIfPresent(LedgerCheckpoint.self, forKey: .checkpoint) {
            self.checkpoint = checkpoint
            entries = try container.decode([LedgerEntry].self, forKey: .entriesSinceCheckpoint)
        } else {
            entries = try container.decode([LedgerEntry].self, forKey: .entries)
        }
        LedgerDecoding.count(entries: entries.count, checkpoints: checkpoint == nil ? 0 : 1)
    }

    /// Encodes the ledger: `entries` alone, or the checkpoint and `entriesSinceCheckpoint`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let checkpoint {
            try container.encode(checkpoint, forKey: .checkpoint)
            try container.encode(entries, forKey: .entriesSinceCheckpoint)
        } else {
            try container.encode(entries, forKey: .entries)
        }
    }
}
