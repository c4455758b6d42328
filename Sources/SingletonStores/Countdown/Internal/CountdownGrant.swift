import Foundation
import SingletonStoresLocking

/// A countdown that spending an item started, recorded in the same write that spends the item
/// (in another document, such as a purchase ledger), so that the spend and its countdown reach
/// the disk as one step. The countdown reads the newest one through ``CountdownGrants``.
package struct CountdownGrant: Sendable {
    /// A unique id of this use of an item.
    package var id: String
    /// When the countdown ends, on the wall clock.
    package var endDate: Date
    /// The boot the countdown's ``endSinceBootSeconds`` belongs to, where the platform tells.
    package var bootID: String?
    /// When the countdown ends, in seconds since that boot.
    package var endSinceBootSeconds: Double?
    /// The countdown's length when it started, in seconds: the most time left it may show.
    package var lengthSeconds: Double?
    /// For the countdown that is deciding this grant: what the grants' document must still
    /// hold for the item to be spent on it (never stored).
    package var spendCheck: CountdownSpendCheck?

    package init(
        id: String, endDate: Date, bootID: String? = nil, endSinceBootSeconds: Double? = nil,
        lengthSeconds: Double? = nil, spendCheck: CountdownSpendCheck? = nil
    ) {
        self.id = id
        self.endDate = endDate
        self.bootID = bootID
        self.endSinceBootSeconds = endSinceBootSeconds
        self.lengthSeconds = lengthSeconds
        self.spendCheck = spendCheck
    }

    /// The grant of a countdown recorded as `record` (its end, boot time and length), with the
    /// id `id`.
    init(id: String, record: CountdownRecord) {
        self.init(
            id: id, endDate: record.endDate ?? Date(timeIntervalSince1970: 0), bootID: record.bootID,
            endSinceBootSeconds: record.endSinceBootSeconds, lengthSeconds: record.remainingSecondsWhenWritten)
    }
}

/// Where a countdown whose items start it reads the newest grant: the document that records
/// the spends (watched too), and how to read its newest grant from disk.
package struct CountdownGrants: Sendable {
    /// The document the grants are recorded in; the countdown follows it.
    package var key: String
    /// Reads the newest grant on disk; `nil` for none. It must not post or call observers (it
    /// runs under the countdown's lock), and reports a kept-aside document itself.
    package var latest: @Sendable () throws(StorageError) -> CountdownGrant?

    package init(key: String, latest: @escaping @Sendable () throws(StorageError) -> CountdownGrant?) {
        self.key = key
        self.latest = latest
    }
}

/// What the grants' document must still hold for an item to be spent on a grant: the newest
/// grant the countdown saw when it decided that no countdown runs.
///
/// The countdown decides under its own lock, but the item is spent under the other document's.
/// Should the countdown's lock file be removed meanwhile, another process may decide too; the
/// spend checks, under its own lock, that no other item was spent on a countdown since this
/// decision, and else spends nothing and marks the check ``isStale``: the countdown then decides
/// again from disk.
package final class CountdownSpendCheck: Sendable {
    /// The id of the newest grant on disk when the decision was taken; `nil` for none.
    package let latestGrantID: String?
    private let stale = Locked(false)

    package init(latestGrantID: String?) {
        self.latestGrantID = latestGrantID
    }

    /// Whether another grant was on disk when the item was to be spent.
    package var isStale: Bool { stale.withLock { $0 } }

    /// Records that another grant was on disk: nothing was spent.
    package func markStale() {
        stale.withLock { $0 = true }
    }
}
