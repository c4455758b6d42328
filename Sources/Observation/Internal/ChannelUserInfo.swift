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
    /// either.
    @inlinable
    package func userInfo(carrying payload: Payload, classicEntries: Int) -> [AnyHashable: Any] {
        var info =
            classicEntries <= 2
            ? sparseUserInfo
            : [AnyHashable: Any](minimumCapacity: 3 * (classicEntries + 1))
        info[channelPayloadKey] = payload
        return info
    }

    /// The `userInfo` of a store change: `payload` under ``payloadKey``, and `old` and `new`
    /// under `"old"` and `"new"` for classic observers.
    ///
    /// It is a copy of one prepared table whose three values are replaced by position, so a post
    /// hashes no key; the layout is the one `userInfo(carrying:classicEntries:)` makes.
    @inlinable
    package func userInfo(carrying payload: Payload, old: Any, new: Any) -> [AnyHashable: Any] {
        let layout = changeUserInfoLayout
        var info = layout.table
        info.values[layout.payload] = payload
        info.values[layout.old] = old
        info.values[layout.new] = new
        return info
    }
}

/// An empty `userInfo` table with room for a payload and two more entries, about four slots
/// each. `userInfo(carrying:classicEntries:)` starts from a copy of it: copying an empty table
/// is one allocation, where `Dictionary(minimumCapacity:)` is not inlinable and looks its
/// storage type up in the runtime on every call.
// nonisolated(unsafe): an immutable empty dictionary; every write goes to a copy of its own.
@usableFromInline nonisolated(unsafe) let sparseUserInfo = [AnyHashable: Any](minimumCapacity: 9)

/// The prepared table of a store change's `userInfo` and the positions of its three values.
/// The positions stay valid in every copy of the table: replacing a value moves no entry.
@usableFromInline
struct ChangeUserInfoLayout: @unchecked Sendable {  // @unchecked: `Any` placeholders, never read
    @usableFromInline let table: [AnyHashable: Any]
    @usableFromInline let payload: Dictionary<AnyHashable, Any>.Index
    @usableFromInline let old: Dictionary<AnyHashable, Any>.Index
    @usableFromInline let new: Dictionary<AnyHashable, Any>.Index

    init() {
        var table = sparseUserInfo
        table[channelPayloadKey] = ()
        table["old"] = ()
        table["new"] = ()
        // The three keys were just inserted, so each lookup finds its entry.
        self.payload = table.index(forKey: channelPayloadKey) ?? table.startIndex
        self.old = table.index(forKey: "old") ?? table.startIndex
        self.new = table.index(forKey: "new") ?? table.startIndex
        self.table = table
    }
}

@usableFromInline let changeUserInfoLayout = ChangeUserInfoLayout()
