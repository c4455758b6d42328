import Foundation
import SingletonStores
import StoreObservation

extension NotificationChannel where Payload == StoreChange<APITarget> {
    /// Every change of the selected API target.
    public static let apiTarget = NotificationChannel("SingletonStores.APITargetStore.changed")
}

/// The production API target store: the persisted choice of server environment, production
/// until a developer picks another.
///
/// ```swift
/// try APITargetStore.shared.select(.dev01)
/// let url = WebViewLink.help.toURLString()   // "https://dev01.hoge.com/api/web/help"
/// ```
public final class APITargetStore: APITargetStoreContract {
    /// The app's API target store, persisted in the default data folder.
    public static let shared = APITargetStore()

    private let persisted: PersistentStoreCore<APITarget>
    /// The store's document, `apiTarget`.
    static let document = StoreDocument<APITarget>(key: "apiTarget", default: .production)

    /// Creates an API target store.
    ///
    /// - Parameters:
    ///   - storage: Where the `apiTarget` document lives.
    ///   - center: The notification center changes are posted to.
    ///   - watching: How the store follows changes other processes write to its document;
    ///     file events or a poll by default, `.off` to read it only at launch and on writes.
    ///   - reportIssue: Receives load problems; prints to standard error by default.
    public init(
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        persisted = PersistentStoreCore(
            Self.document, storage: storage, channel: .apiTarget, center: center, watching: watching,
            reportIssue: reportIssue)
    }

    /// The selected environment.
    public var target: APITarget { persisted.state }

    /// The notification center changes are posted to.
    public var center: NotificationCenter { persisted.center }

    /// Selects the environment links and requests go to, and persists the choice.
    ///
    /// - Parameter target: The environment.
    public func select(_ target: APITarget) throws(StorageError) {
        try persisted.update { $0 = target }
    }

    /// Calls `handler` with every change of the selected environment.
    ///
    /// - Parameter handler: Called with each change.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        _ handler: @escaping @Sendable (StoreChange<APITarget>) -> Void
    ) -> ObservationToken {
        persisted.observe(handler)
    }
}
