import Foundation

// How a channel lays out the `userInfo` of its notifications. Internal; `post` and `StoreCore`
// use it.

extension NotificationChannel {
    /// A `userInfo` dictionary holding `payload` under ``payloadKey``, with room for
    /// `classicEntries` more; the caller adds those and posts.
    ///
    /// Every observer looks the payload up, and each occupied slot a lookup passes on the way
    /// costs an `AnyHashable` comparison — a dynamic cast, far dearer than the hash. The payload
    /// goes in first, into an empty table, so it sits in its home slot and every observer finds
    /// it with one comparison whatever else the dictionary holds. The table is also kept sparse
    /// (about four slots per entry), so the entries added after it rarely pass an occupied slot
    /// either. (`StoreCore` posts through this directly, building one dictionary per change.)
    @inlinable
    package func userInfo(carrying payload: Payload, classicEntries: Int) -> [AnyHashable: Any] {
        var info = classicEntries <= 2
            ? sparseUserInfo
            : [AnyHashable: Any](minimumCapacity: 3 * (classicEntries + 1))
        info[channelPayloadKey] = payload
        return info
    }
}

/// An empty `userInfo` table with room for a payload and two more entries, about four slots
/// each. `userInfo(carrying:classicEntries:)` starts from a copy of it: copying an empty table
/// is one allocation, where `Dictionary(minimumCapacity:)` is not inlinable and looks its
/// storage type up in the runtime on every call.
// nonisolated(unsafe): an immutable empty dictionary; every write goes to a copy of its own.
@usableFromInline nonisolated(unsafe) let sparseUserInfo = [AnyHashable: Any](minimumCapacity: 9)
