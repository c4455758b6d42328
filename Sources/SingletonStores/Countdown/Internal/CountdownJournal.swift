import Foundation
import Timers

/// What a countdown store reads from disk: its document together with the newest grant of the
/// document whose item spends start it (if any).
///
/// Every decision another process could race — is a countdown running? may this item start
/// one? — is taken in the store's transaction (``CountdownStore/transact(waits:_:)``), from
/// what is on disk at that moment.
struct CountdownJournal: Sendable {
    /// The countdown's document.
    let key: String
    /// Where the grants that start this countdown too are read; `nil` for none.
    let grants: CountdownGrants?
    let storage: any StoreStorage
    let reportIssue: @Sendable (StoreIssue) -> Void

    /// The countdown's document: no countdown until one is written. Its identity is the
    /// record's, which the countdown's documents have always recorded.
    var document: StoreDocument<CountdownState> {
        StoreDocument(key: key, default: CountdownState(record: .none, phase: nil), identity: "CountdownRecord")
    }

    /// The record as it stands now, grants included, read without locking (documents are
    /// replaced atomically). When the document cannot be read, the newest grant's countdown, or
    /// `.none`; problems are reported.
    func current() -> CountdownRecord {
        do {
            let loaded = try storage.load(document)
            if let problem = loaded.recovery { reportIssue(.storageRecovered(problem)) }
            return loaded.value.record.merging(try latestGrant())
        } catch {
            reportIssue(.storageRecovered(error))
            // The countdown an item paid for still shows, from its grant.
            return CountdownRecord.none.merging(try? latestGrant())
        }
    }

    /// How the store's core reads its state: the record as it stands now (``current()``), with
    /// the phase in memory while the record is the one in memory, else the phase it describes
    /// at the instant `now()` gives.
    func reading(
        now: @escaping @Sendable () -> CountdownTimer.Instant, wallClock: WallClock, bootClock: BootClock
    ) -> StateReading<CountdownState> {
        StateReading(alsoFollowing: [grants?.key].compactMap { $0 }) { memory in
            let record = current()
            if memory.phase != nil, memory.record == record { return StorageLoad(value: memory, isStored: false) }
            let phase = CountdownState.phase(of: record, at: now(), wallClock: wallClock, bootClock: bootClock)
            return StorageLoad(value: CountdownState(record: record, phase: phase), isStored: true)
        }
    }

    /// The newest grant on disk; `nil` when this countdown reads none.
    func latestGrant() throws(StorageError) -> CountdownGrant? {
        try grants?.latest()
    }
}
