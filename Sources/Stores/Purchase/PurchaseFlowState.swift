/// Where the purchase flow is: the one place every screen reads "is a purchase running?".
///
/// Only the moves in ``canMove(to:)`` are legal: a second purchase cannot start while one is
/// running, and nothing is "purchased" without having been purchased or restored.
///
/// ```
/// idle ──► purchasing ──► purchased | failed | cancelled ──► idle, purchasing, restoring
///   └────► restoring  ──► purchased | failed | idle
/// ```
public enum PurchaseFlowState: Sendable, Equatable, CustomStringConvertible {
    /// Nothing is happening.
    case idle
    /// A purchase of the product is in progress.
    case purchasing(PurchaseProduct)
    /// The last purchase or restore succeeded.
    case purchased(PurchaseProduct?)
    /// The last purchase or restore failed.
    case failed(reason: String)
    /// The user cancelled the last purchase.
    case cancelled
    /// Earlier purchases are being restored.
    case restoring

    /// Whether the flow may move from this state to `next`.
    ///
    /// - Parameter next: The proposed state.
    public func canMove(to next: PurchaseFlowState) -> Bool {
        switch (self, next) {
        case (.idle, .purchasing), (.idle, .restoring):
            true
        case (.purchasing, .purchased), (.purchasing, .failed), (.purchasing, .cancelled):
            true
        case (.restoring, .purchased), (.restoring, .failed), (.restoring, .idle):
            true
        case (.purchased, .idle), (.purchased, .purchasing), (.purchased, .restoring),
            (.failed, .idle), (.failed, .purchasing), (.failed, .restoring),
            (.cancelled, .idle), (.cancelled, .purchasing), (.cancelled, .restoring):
            true
        default:
            false
        }
    }

    /// Whether a purchase or restore is running.
    public var isBusy: Bool {
        switch self {
        case .purchasing, .restoring: true
        default: false
        }
    }

    /// A short description, such as `purchasing 3 boost items`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .purchasing(let product): "purchasing \(product)"
        case .purchased(let product?): "purchased \(product)"
        case .purchased(nil): "restored"
        case .failed(let reason): "failed: \(reason)"
        case .cancelled: "cancelled"
        case .restoring: "restoring"
        }
    }
}
