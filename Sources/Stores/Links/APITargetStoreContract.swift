import Foundation

/// Which server environment links and requests go to.
///
/// Production code reads the persisted choice through ``APITargetStore``; tests pass an
/// ``APITargetStoreStub``.
public protocol APITargetStoreContract: Sendable {
    /// The selected environment.
    var target: APITarget { get }
    /// The notification center the store posts ``StoreObservation/NotificationChannel/apiTarget``
    /// to: a screen that follows the target through notifications observes it there.
    var center: NotificationCenter { get }
}

extension APITargetStoreContract {
    /// `.default`, for a store that posts nothing or posts there.
    public var center: NotificationCenter { .default }
}
