import Foundation
import StoreObservation

/// One value a ``ChangeRecorder`` captured: the notification name and the channel's payload.
///
/// Two recorded changes are equal when their names are equal and their payloads are of the same
/// `Equatable` type and equal. Payloads that are not `Equatable` never compare equal.
public struct RecordedChange: @unchecked Sendable, Equatable, CustomStringConvertible {
    // `@unchecked`: channels only post `Sendable` payloads, and a record never mutates one.
    /// The notification's name: the channel it was posted on.
    public let name: Notification.Name
    /// The channel's payload, such as a `StoreChange`.
    public let payload: Any

    /// Creates a record of `payload` posted on `name`.
    public init(name: Notification.Name, payload: Any) {
        self.name = name
        self.payload = payload
    }

    /// Creates the record a post of `payload` on `channel` produces, for expected values.
    ///
    /// - Parameters:
    ///   - channel: The channel the value is expected on.
    ///   - payload: The expected payload.
    public init<Payload: Sendable & Equatable>(
        _ channel: NotificationChannel<Payload>, _ payload: Payload
    ) {
        self.init(name: channel.name, payload: payload)
    }

    /// `name: payload`, for test failure messages.
    public var description: String { "\(name.rawValue): \(payload)" }

    /// Compares names, then payloads as their common `Equatable` type.
    public static func == (lhs: RecordedChange, rhs: RecordedChange) -> Bool {
        guard lhs.name == rhs.name, let left = lhs.payload as? any Equatable else { return false }
        return left.isEqual(to: rhs.payload)
    }
}

extension Equatable {
    /// Whether `other` has this value's type and is equal to it.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
