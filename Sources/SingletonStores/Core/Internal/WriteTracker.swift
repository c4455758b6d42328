import SingletonStoresLocking

/// Orders a ``PersistentStoreCore``'s writes and its follows of the disk in memory, without
/// holding the store's lock while a write waits for the file lock.
///
/// A write commits to disk first, then to memory. Writes take a sequence number under the file
/// lock, so their numbers follow the order of the disk; memory adopts a write only if no later
/// one was adopted. A follow (news from the disk, or ``PersistentStoreCore/reload()``) reads the
/// disk inside the store's own transaction; it adopts nothing while a write of this process is
/// under way, and a write that sees a follow happen while it was under way follows the disk
/// again once it has committed, so memory always ends at what the disk holds.
final class WriteTracker: Sendable {
    private struct Counts {
        /// Writes of this process under way.
        var writes = 0
        /// Follows so far (adopting or not), counted when they end.
        var follows: UInt64 = 0
        /// Sequence numbers handed out, and the newest adopted in memory.
        var issued: UInt64 = 0
        var adopted: UInt64 = 0
    }

    private let counts = Locked(Counts())

    /// A write begins; returns the follow count to hand back to ``endWrite(since:)``.
    func beginWrite() -> UInt64 {
        counts.withLock { counts in
            counts.writes += 1
            return counts.follows
        }
    }

    /// The next sequence number; call under the file lock.
    func nextSequence() -> UInt64 {
        counts.withLock { counts in
            counts.issued += 1
            return counts.issued
        }
    }

    /// Whether the write numbered `sequence` may replace memory: no later one did yet.
    func adopt(_ sequence: UInt64) -> Bool {
        counts.withLock { counts in
            guard sequence > counts.adopted else { return false }
            counts.adopted = sequence
            return true
        }
    }

    /// A write ends; returns whether a follow happened meanwhile, so that the disk must be
    /// followed again.
    func endWrite(since follows: UInt64) -> Bool {
        counts.withLock { counts in
            counts.writes -= 1
            return counts.follows != follows
        }
    }

    /// Runs a follow: `read` runs (inside the store's transaction) only while no write is under
    /// way; either way the follow is counted when it ends.
    func follow<Failure: Error>(_ read: () throws(Failure) -> Void) throws(Failure) {
        defer { counts.withLock { $0.follows += 1 } }
        guard counts.withLock({ $0.writes == 0 }) else { return }
        try read()
    }
}
