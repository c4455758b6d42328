import Foundation

/// A notification name tied to the type of value it carries.
///
/// `NotificationCenter` speaks in names and `Any`: every observer casts `object` or digs through
/// `userInfo` and hopes the poster agreed. A channel fixes the payload type once, next to the
/// name, so posting and observing are checked by the compiler:
///
/// ```swift
/// extension NotificationChannel where Payload == Int {
///     static let boostTime = NotificationChannel(.boostTimeNotification)
/// }
///
/// let token = NotificationChannel.boostTime.observe { seconds in
///     label.text = "\(seconds) s left"
/// }
/// NotificationChannel.boostTime.post(42)   // the observer sees 42
/// ```
///
/// A channel is a thin layer over an ordinary notification, so code that observes the classic
/// way, by name, keeps working: the payload travels in `userInfo` under
/// ``NotificationChannel/payloadKey``, and a poster can also put a value in the notification's
/// `object` for classic observers.
///
/// Every entry point takes the `NotificationCenter` to use, defaulting to `.default`. Tests pass
/// a center of their own so that tests running in parallel never see each other's notifications.
public struct NotificationChannel<Payload: Sendable>: Sendable, Hashable {
    /// The `userInfo` key under which a channel stores its payload.
    ///
    /// Classic observers read the typed value with
    /// `notification.userInfo?[NotificationChannel<Int>.payloadKey] as? Int`.
    public static var payloadKey: String { channelPayloadKey }

    /// The notification name the channel posts and observes.
    public let name: Notification.Name

    /// Creates a channel for notifications with the given name.
    ///
    /// - Parameter name: The name to post and observe. Give each channel a name of its own:
    ///   two channels with one name but different payload types ignore each other's posts.
    public init(_ name: Notification.Name) {
        self.name = name
    }

    /// Creates a channel for notifications with the given raw name.
    ///
    /// - Parameter rawName: The notification's name, for example `"boostTime"`.
    public init(_ rawName: String) {
        self.init(Notification.Name(rawName))
    }

    /// Posts a value to every observer of this channel on `center`.
    ///
    /// Observers that run on the posting thread have run when this method returns; observers
    /// with a queue or on the main actor run later, in posting order.
    ///
    /// - Parameters:
    ///   - payload: The value to deliver.
    ///   - object: The notification's `object`, for classic observers that filter by sender or
    ///     read the value from `object` (the boost countdown posts its remaining seconds there).
    ///   - userInfo: Extra entries for classic observers. The payload is added under
    ///     ``payloadKey``.
    ///   - center: The notification center to post on.
    public func post(
        _ payload: Payload,
        object: Any? = nil,
        userInfo: [String: any Sendable] = [:],
        center: NotificationCenter = .default
    ) {
        var info = self.userInfo(carrying: payload, classicEntries: userInfo.count)
        for (key, value) in userInfo where key != channelPayloadKey { info[key] = value }
        center.post(name: name, object: object, userInfo: info)
    }

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

    /// Reads this channel's payload from a notification, or returns `nil` if it carries none.
    ///
    /// The payload is looked for in `userInfo` under ``payloadKey`` first and in `object`
    /// second, so notifications posted the classic way with the value as `object` are understood
    /// too.
    ///
    /// - Parameter notification: A notification with this channel's name.
    @inlinable
    public func payload(of notification: Notification) -> Payload? {
        guard notification.name == name else { return nil }
        if let value = notification.userInfo?[channelPayloadKey] as? Payload { return value }
        return notification.object as? Payload
    }
}

/// The key every channel uses; one constant so generic code and classic observers agree.
@usableFromInline let channelPayloadKey = "payload"

/// An empty `userInfo` table with room for a payload and two more entries, about four slots
/// each. `userInfo(carrying:classicEntries:)` starts from a copy of it: copying an empty table
/// costs an allocation and nothing else, where `Dictionary(minimumCapacity:)` runs unspecialised
/// and looks the storage type up in the runtime's metadata cache on every call.
// nonisolated(unsafe): an immutable empty dictionary; every write goes to a copy of its own.
@usableFromInline nonisolated(unsafe) let sparseUserInfo = [AnyHashable: Any](minimumCapacity: 9)
