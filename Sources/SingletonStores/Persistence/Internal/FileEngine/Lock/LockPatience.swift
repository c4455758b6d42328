import Foundation

/// How much longer a writer waits for a lock: ``limit`` without progress — another writer
/// committing the document, or this process's queue moving on — and never more than
/// ``cap`` in all.
///
/// So a holder that is stopped or hung makes waiters give up after the storage's lock
/// timeout, while writers that merely take turns on a busy store wait as long as the others
/// get on.
struct LockPatience {
    /// The longest wait without progress: the storage's lock timeout.
    let limit: Duration
    /// The longest wait in all: ``FileStorage/maximumLockTimeout``.
    static let cap = FileStorage.maximumLockTimeout
    /// When the wait began.
    let started: ContinuousClock.Instant
    /// When progress was last seen.
    private(set) var lastProgress: ContinuousClock.Instant
    /// The document whose commits count as progress; `nil` when none is watched.
    private let document: URL?
    /// The document's stamp when the wait first had to look (`nil` inside: nothing was there);
    /// `nil` until then. A lock that is free at once never looks at the document.
    private var stamp: FileStamp??

    init(limit: Duration, document: URL?) {
        self.limit = limit
        self.document = document
        started = ContinuousClock.now
        lastProgress = started
    }

    /// Notes progress seen by other means (the queue moved on).
    mutating func progressed() {
        lastProgress = ContinuousClock.now
    }

    /// The wait left, after looking for a new commit of the document; `nil` when patience has
    /// run out.
    mutating func remaining() -> Duration? {
        let now = ContinuousClock.now
        if let document {
            let current = FileStamp.of(document)
            if let seen = stamp, current != seen { lastProgress = now }
            stamp = current
        }
        let idle = now - lastProgress
        guard idle < limit, now - started < Self.cap else { return nil }
        return limit - idle
    }

    /// How long the wait has lasted so far.
    var waited: Duration { ContinuousClock.now - started }
}
