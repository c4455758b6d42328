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
}

/// An empty `userInfo` table with room for a payload and two more entries, about four slots
/// each. `userInfo(carrying:classicEntries:)` starts from a copy of it: copying an empty table
/// is one allocation, where `Dictionary(minimumCapacity:)` is not inlinable and looks its
/// storage type up in the runtime on every call.
// nonisolated(unsafe): an immutable empty dictionary; every write goes to a copy of its own.
@usableFromInline nonisolated(unsafe) let sparseUserInfo = [AnyHashable: Any](minimumCapacity: 9)

/// The prepared table of a store change's `userInfo` and the positions of its three values:
/// `payload` under ``NotificationChannel/payloadKey``, and `old` and `new` under `"old"` and
/// `"new"`, laid out as `userInfo(carrying:classicEntries:)` lays out a payload and two more
/// entries. A post replaces the values by position, so it hashes no key; the positions stay
/// valid in every copy of the table, since replacing a value moves no entry.
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

/// The `userInfo` table of one store's change posts, kept from one post to the next.
///
/// ``fill(payload:old:new:)`` writes a change's three values into the table and returns it for
/// the post; ``clear(_:_:)``, called once the post has returned, puts the placeholders back
/// (unless the values are plain data), so the table keeps nothing alive between posts. When no observer kept the notification, the table is
/// the buffer's alone again by then, and the next post writes into it in place: no allocation,
/// no key copied, nothing to tear down. A notification that an observer kept keeps its own
/// values: the next write copies the table first.
///
/// Only the thread whose turn it is to post a store's changes uses the store's buffer (a store
/// posts its changes one at a time, in commit order), and the turn passes from thread to thread
/// under the store's lock; hence `@unchecked Sendable`.
@usableFromInline
package final class ChangeUserInfoBuffer: @unchecked Sendable {
    // Unchecked: only the thread whose turn it is uses the buffer (see above).
    @exclusivity(unchecked) @usableFromInline var table: [AnyHashable: Any]
    @usableFromInline let layout: ChangeUserInfoLayout

    /// An empty buffer.
    package init() {
        layout = changeUserInfoLayout
        table = layout.table
    }

    /// The `userInfo` of a store change, laid out as ``ChangeUserInfoLayout`` says, holding
    /// `payload`, `old` and `new`.
    @inlinable
    package func fill<Payload, State>(payload: Payload, old: State, new: State) -> [AnyHashable: Any] {
        Self.write(&table.values, layout, payload, old, new)
        return table
    }

    /// Drops the values of the last change, so that the table keeps no state alive between
    /// posts. Plain data (no references, nothing to release) is left for the next post to
    /// overwrite: keeping it holds nothing alive.
    @inlinable
    package func clear<Payload, State>(_: Payload.Type, _: State.Type) {
        if _isPOD(Payload.self) && _isPOD(State.self) { return }
        Self.write(&table.values, layout, (), (), ())
    }

    /// Replaces the three values in one access to the table (one uniqueness check).
    @inlinable
    static func write<Payload, State>(
        _ values: inout Dictionary<AnyHashable, Any>.Values, _ layout: ChangeUserInfoLayout,
        _ payload: Payload, _ old: State, _ new: State
    ) {
        values[layout.payload] = payload
        values[layout.old] = old
        values[layout.new] = new
    }
}

/// The `userInfo` table of one poster's channel posts that carry their payload alone, kept from
/// one post to the next: the table `post(_:object:userInfo:center:)` builds with no extra
/// entries, whose payload is written in place by position.
///
/// When no observer kept the last notification, the table is the buffer's alone again by the
/// next post, which writes into it with no allocation and no key hashed; a notification that an
/// observer kept keeps its own payload (the next write copies the table first). A payload that
/// holds references is dropped once the post has returned, so the table keeps nothing alive.
///
/// Only one thread at a time may post through a buffer (a countdown's deliveries, which come
/// one at a time); hence `@unchecked Sendable`.
package final class PayloadPostBuffer: @unchecked Sendable {
    // Unchecked: one poster at a time (see above).
    @exclusivity(unchecked) private var table: [AnyHashable: Any]
    private let payload: Dictionary<AnyHashable, Any>.Index

    /// An empty buffer.
    package init() {
        var table = sparseUserInfo
        table[channelPayloadKey] = ()
        // The key was just inserted, so the lookup finds its entry.
        payload = table.index(forKey: channelPayloadKey) ?? table.startIndex
        self.table = table
    }

    /// Posts `payload` on `channel` as ``NotificationChannel/post(_:object:userInfo:center:)``
    /// does with no extra entries.
    package func post<Payload>(
        _ payload: Payload, object: Any?, on channel: NotificationChannel<Payload>, center: NotificationCenter
    ) {
        table.values[self.payload] = payload
        center.post(name: channel.name, object: object, userInfo: table)
        if !_isPOD(Payload.self) { table.values[self.payload] = () }
    }
}
