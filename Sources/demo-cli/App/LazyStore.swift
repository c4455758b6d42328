import SingletonStoresLocking
import Stores

/// A store built the first time it is used, so that a command reads only the documents of the
/// stores it uses.
///
/// ```swift
/// let profile = LazyStore { UserProfileStore(storage: storage) }
/// let nickname = profile.value.profile.nickname   // the profile is loaded here, once
/// ```
///
/// The store is built outside the lock (building reads documents and may report issues). Two
/// threads that use it first at the same moment may both build one; the first to finish is
/// kept and returned to both, the other is dropped. demo-cli runs each command on one task, so
/// it builds each store once.
final class LazyStore<Store: Sendable>: Sendable {
    private let build: @Sendable () -> Store
    private let built = Locked<Store?>(nil)

    /// A store that `build` makes on first use.
    init(_ build: @escaping @Sendable () -> Store) {
        self.build = build
    }

    /// The store, built now if this is its first use.
    var value: Store {
        if let store = built.withLock({ $0 }) { return store }
        let made = build()
        return built.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }

    /// Whether the store has been built.
    var isBuilt: Bool {
        built.withLock { $0 != nil }
    }
}

/// The boost a ``Stores/PurchaseManager`` spends items on, built only when an item is spent or
/// the boost is read: buying or showing purchases leaves the boost's document unread.
struct DeferredBoost: BoostTimeManagerContract {
    /// The boost, built on first use.
    let store: LazyStore<BoostTimeManager>

    var isInBoostTime: Bool { store.value.isInBoostTime }
    var remainingSeconds: Int { store.value.remainingSeconds }

    func startCountDown(duration: Int) {
        store.value.startCountDown(duration: duration)
    }

    func startCountDownIfIdle(duration: Int) throws(BoostError) {
        try store.value.startCountDownIfIdle(duration: duration)
    }

    func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        try store.value.startCountDownIfIdle(duration: duration, paidBy: payment)
    }

    func stopCountDown() {
        store.value.stopCountDown()
    }
}
