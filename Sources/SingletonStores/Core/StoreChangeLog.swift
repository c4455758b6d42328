import Foundation
import StoreObservation

/// Every committed change of every store that posts to a notification center, in one place:
/// for logs, bug reports and debugging sessions.
///
/// ```swift
/// let log = StoreChangeLog.start { entry in
///     print(entry)   // "purchases: PurchaseLedger(…) → PurchaseLedger(…) (another process)"
/// }
/// // …
/// log.cancel()       // or drop the token
/// ```
///
/// The log observes the center for the posts of ``StoreCore`` and ``PersistentStoreCore`` (and
/// so of every store built on them, ``ValueStore`` included), whatever their state's type; other
/// notifications are passed over. While no log is started it costs nothing: it is an observer
/// like any other, and there is none. Entries arrive on the thread that committed the change,
/// in commit order per store, after the store's own observers' Observation `onChange`.
public struct StoreChangeLog: Sendable {
    /// One committed change, described.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// The store's channel name, such as `SingletonStores.ValueStore.session`.
        public let store: String
        /// The state before the change, as `String(describing:)` writes it.
        public let old: String
        /// The state after the change.
        public let new: String
        /// Whether the store followed the change from another process (or another storage
        /// instance), rather than making it here.
        public let isFromOtherProcess: Bool

        /// `store: old → new`, with `(another process)` for a followed change.
        public var description: String {
            "\(store): \(old) → \(new)\(isFromOtherProcess ? " (another process)" : "")"
        }
    }

    /// Starts logging the store changes posted to `center`.
    ///
    /// - Parameters:
    ///   - center: The center the stores post to; `.default` by default.
    ///   - stores: The channel names to log; `nil` (the default) logs every store.
    ///   - sink: Receives each entry, on the thread that committed the change. Keep it quick.
    /// - Returns: A token; cancel it, or let it go, to stop logging.
    public static func start(
        center: NotificationCenter = .default,
        stores: Set<String>? = nil,
        _ sink: @escaping @Sendable (Entry) -> Void
    ) -> ObservationToken {
        let observer = center.addObserver(forName: nil, object: nil, queue: nil) { notification in
            guard let change = notification.userInfo?[NotificationChannel<Int>.payloadKey] as? any AnyStoreChange else {
                return
            }
            let store = notification.name.rawValue
            if let stores, !stores.contains(store) { return }
            sink(
                Entry(
                    store: store, old: change.oldDescription, new: change.newDescription,
                    isFromOtherProcess: change.isFromOtherProcess))
        }
        let registration = UncheckedObserver(observer)
        return ObservationToken { center.removeObserver(registration.observer) }
    }
}

/// The observer object `addObserver` returns, handed to `removeObserver` from any thread (which
/// NotificationCenter allows).
private struct UncheckedObserver: @unchecked Sendable {
    let observer: any NSObjectProtocol
    init(_ observer: any NSObjectProtocol) { self.observer = observer }
}
