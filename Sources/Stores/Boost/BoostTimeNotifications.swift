import Foundation
import SingletonStores
import StoreObservation
import Timers

extension Notification.Name {
    /// Posted each time the boost's shown remaining seconds change, with the seconds as the
    /// notification's `object` (as UIKit-era observers expect) and as the typed payload of
    /// ``StoreObservation/NotificationChannel/boostTime``.
    public static let boostTimeNotification = Notification.Name("boostTime")

    /// Posted once when a boost ends, with the ``BoostEnd`` as the typed payload of
    /// ``StoreObservation/NotificationChannel/boostEnded``.
    public static let boostEndedNotification = Notification.Name("boostEnded")
}

extension NotificationChannel where Payload == Int {
    /// The boost's shown remaining seconds, on every change.
    ///
    /// ```swift
    /// let token = NotificationChannel.boostTime.observe { seconds in
    ///     label.text = seconds.formatted(.countdown)
    /// }
    /// ```
    public static let boostTime = NotificationChannel(.boostTimeNotification)
}

/// Why a boost ended: a countdown's end (`CountdownEnd`, in SingletonStores), under the boost's
/// name.
public typealias BoostEnd = CountdownEnd

extension NotificationChannel where Payload == BoostEnd {
    /// Posted exactly once per boost, when it ends — whether or not anyone observes.
    public static let boostEnded = NotificationChannel(.boostEndedNotification)
}
