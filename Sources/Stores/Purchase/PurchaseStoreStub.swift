import Foundation
import SingletonStores

/// A purchase store held in memory, for tests and previews: buying always succeeds.
///
/// ```swift
/// let purchases = PurchaseStoreStub(boostItems: 2, premiumExpiry: nil)
/// ```
///
/// It follows the same rules as ``PurchaseManager`` — an item is spent only if its boost starts —
/// using the boost store it is given. It takes part in Swift Observation like the production
/// store: reading ``ownedBoostItems``, ``premiumExpiry`` or ``flowState`` in a SwiftUI `body`
/// registers a dependency, and each change calls `onChange` once. A change of its flow is posted
/// on ``StoreObservation/NotificationChannel/purchaseFlow`` to ``center``, as the production store
/// posts it, so a screen that observes the contract's `center` follows the stub too. (It keeps
/// no ledger, so it posts nothing on ``StoreObservation/NotificationChannel/purchaseLedger``.)
public final class PurchaseStoreStub: PurchaseStoreContract {
    struct State: Equatable, Sendable {
        var boostItems: Int
        var premiumExpiry: Date?
        var flow: PurchaseFlowState = .idle
    }
    private let core: StoreCore<State>
    private let boost: any BoostTimeManagerContract
    private let now: @Sendable () -> Date
    private let flowPosts: ObservationToken

    /// Where a change of ``flowState`` is posted, on ``StoreObservation/NotificationChannel/purchaseFlow``.
    public let center: NotificationCenter

    /// Creates a stub.
    ///
    /// - Parameters:
    ///   - boostItems: The items owned.
    ///   - premiumExpiry: When premium ends, or `nil`.
    ///   - boost: The boost store items start; a stub with no boost running by default.
    ///   - now: The current date, for ``isPremium``.
    ///   - center: Where a change of the flow is posted; a center of its own by default, so that
    ///     tests running in parallel never see each other's posts.
    public init(
        boostItems: Int = 0,
        premiumExpiry: Date? = nil,
        boost: any BoostTimeManagerContract = BoostTimeManagerStub(remainingSeconds: 0),
        now: @escaping @Sendable () -> Date = { Date() },
        center: NotificationCenter = NotificationCenter()
    ) {
        core = StoreCore(
            State(boostItems: max(boostItems, 0), premiumExpiry: premiumExpiry), channel: .purchaseStub,
            center: NotificationCenter())
        self.boost = boost
        self.now = now
        self.center = center
        // The stub's own changes come in commit order, after its lock is released.
        flowPosts = core.observe { change in
            guard change.old.flow != change.new.flow else { return }
            NotificationChannel.purchaseFlow.post(StoreChange(old: change.old.flow, new: change.new.flow), center: center)
        }
    }

    /// The items owned.
    public var ownedBoostItems: Int { core.state.boostItems }
    /// When premium ends.
    public var premiumExpiry: Date? { core.state.premiumExpiry }
    /// Whether premium is active at `now()`.
    public var isPremium: Bool { premiumExpiry.map { $0 > now() } ?? false }
    /// The flow state: purchased after a buy.
    public var flowState: PurchaseFlowState { core.state.flow }

    /// Adds the product at once.
    @discardableResult
    public func buy(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        guard product.isWithinLimits else { throw .invalidProduct(product) }
        let date = now()
        core.update { state in
            switch product {
            case .boostItems(let count): state.boostItems = state.boostItems.saturatingAdding(max(count, 0))
            case .premium(let days):
                let start = max(date, state.premiumExpiry ?? date)
                state.premiumExpiry = start.addingTimeInterval(TimeInterval(max(days, 0)) * 86_400)
            }
            state.flow = .purchased(product)
        }
        return .purchased(PurchaseReceipt(id: "stub", product: product, date: date))
    }

    /// Restores nothing.
    @discardableResult
    public func restore() async throws(PurchaseError) -> Int { 0 }

    /// Spends one item if its boost starts.
    public func useBoostItem(duration: Int) throws(PurchaseError) {
        try boost.startCountDownIfIdle(duration: duration) { _ throws(PurchaseError) in
            let spent = core.update { state -> Bool in
                guard state.boostItems > 0 else { return false }
                state.boostItems -= 1
                return true
            }
            guard spent else { throw .noBoostItems }
        }
    }
}

extension NotificationChannel where Payload == StoreChange<PurchaseStoreStub.State> {
    /// Where a stub posts its changes: a center of its own, which nothing else observes.
    static let purchaseStub = NotificationChannel("SingletonStores.PurchaseStoreStub.changed")
}
