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
/// ```
///
/// ```swift
/// let token = NotificationChannel.boostTime.observe(center: center) { seconds in
///     print("\(seconds) s left")
/// }
/// NotificationChannel.boostTime.post(42, center: center)  // the observer sees 42
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
