import Foundation
import SingletonStores

/// The one boost countdown every screen reads.
///
/// Screens read ``remainingSeconds`` and redraw on `.boostTimeNotification`; the purchase flow
/// starts a boost when an item is used. App code takes the contract, so tests and previews pass a
/// ``BoostTimeManagerStub``:
///
/// ```swift
/// func boostLabel(boost: any BoostTimeManagerContract = StoreValues.current.boost) -> String {
///     boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "Boost"
/// }
/// ```
public protocol BoostTimeManagerContract: Sendable {
    /// Whether a boost is running: ``remainingSeconds`` is above zero.
    var isInBoostTime: Bool { get }
    /// The seconds a screen shows: the time left rounded up, `0` when no boost runs.
    var remainingSeconds: Int { get }
    /// Starts a boost of `duration` seconds, replacing any running one.
    ///
    /// Zero or a negative duration ends any running boost at once; durations beyond
    /// ``BoostTimeManager/maximumDuration`` are clamped to it.
    func startCountDown(duration: Int)
    /// Starts a boost of `duration` seconds only if none is running, as one atomic step.
    ///
    /// - Throws: ``BoostError/alreadyRunning(remainingSeconds:)`` if a boost is running,
    ///   ``BoostError/invalidDuration(_:)`` for a duration of zero or less.
    func startCountDownIfIdle(duration: Int) throws(BoostError)
    /// Starts a boost of `duration` seconds paid for by `payment`, only if none is running, as
    /// one step: when the boost cannot start, `payment` is not called, so nothing is spent.
    ///
    /// ``BoostTimeManager`` takes the decision under its document's lock, across processes, and
    /// a crash at any point leaves the payment and its boost both done or both undone.
    ///
    /// - Throws: ``PurchaseError/boostNotStarted(_:)`` when the boost cannot start, or what
    ///   `payment` threw (then no boost starts).
    func startCountDownIfIdle(duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void) throws(PurchaseError)
    /// Ends the running boost now, if there is one.
    func stopCountDown()
    /// The notification center the boost posts `.boostTimeNotification` and `.boostEndedNotification`
    /// to: a screen that follows the boost through notifications observes it there, so it follows
    /// a stub as it follows the production store.
    var center: NotificationCenter { get }
}

extension BoostTimeManagerContract {
    /// `.default`, for a boost that posts nothing or posts there.
    public var center: NotificationCenter { .default }
}

extension BoostTimeManagerContract {
    /// Checks that no boost runs, calls `payment`, then starts the boost.
    ///
    /// This default is for simple stubs used from one task at a time: the check and the start are
    /// separate steps, so two concurrent calls may both pay. ``BoostTimeManager`` and
    /// ``BoostTimeManagerStub`` implement it as one atomic step.
    public func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        guard duration > 0 else { throw .boostNotStarted(.invalidDuration(duration)) }
        guard !isInBoostTime else { throw .boostNotStarted(.alreadyRunning(remainingSeconds: remainingSeconds)) }
        try payment(BoostGrant(id: UUID().uuidString, endDate: Date().addingTimeInterval(TimeInterval(duration))))
        startCountDown(duration: duration)
    }
}

/// Why a boost could not start.
public enum BoostError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A boost is already running; wait for it to end before starting another.
    case alreadyRunning(remainingSeconds: Int)
    /// A boost needs a duration above zero.
    case invalidDuration(Int)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .alreadyRunning(let seconds):
            "A boost is already running (\(seconds) s left). Use the next item after it ends."
        case .invalidDuration(let seconds):
            "A boost needs a duration above zero seconds; \(seconds) was given."
        }
    }
}
