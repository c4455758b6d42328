import Foundation
import Observation
import SingletonStores
import SingletonStoresLocking
import StoreObservation

/// A boost countdown whose remaining time is set by hand, for tests and previews.
///
/// Fixed:
/// ```swift
/// let text = withStores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) } operation: {
///     boostLabel()   // "12:34"
/// }
/// ```
///
/// Scripted — each ``advance()`` moves to the next value and posts it like the real manager:
/// ```swift
/// let boost = BoostTimeManagerStub(script: [3, 2, 1, 0], center: center)
/// boost.advance()   // posts .boostTimeNotification with 2
/// ```
///
/// Starting a countdown on the stub sets the remaining time at once; nothing ticks by itself.
public final class BoostTimeManagerStub: BoostTimeManagerContract {
    private struct State {
        var script: [Int]
        var position = 0
        /// The duration of a boost whose payment is under way, if any.
        var starting: Int?
        var current: Int { script.indices.contains(position) ? script[position] : 0 }
    }
    private let state: Locked<State>
    /// Where ``advance()`` and the start methods post `.boostTimeNotification`: a screen that
    /// follows the boost through notifications observes this center.
    public let center: NotificationCenter
    private let registrar = ObservationRegistrar()

    /// A stub whose remaining time stays at `remainingSeconds` until changed.
    ///
    /// - Parameters:
    ///   - remainingSeconds: The seconds to report; zero or less means no boost.
    ///   - center: Where ``advance()`` and the start methods post; `.default` by default.
    public convenience init(remainingSeconds: Int, center: NotificationCenter = .default) {
        self.init(script: [remainingSeconds], center: center)
    }

    /// A stub that steps through `script`, one value per ``advance()``.
    ///
    /// - Parameters:
    ///   - script: The remaining seconds to report, in order; the first is current.
    ///   - center: Where ``advance()`` and the start methods post.
    public init(script: [Int], center: NotificationCenter = .default) {
        state = Locked(State(script: script.map { max($0, 0) }))
        self.center = center
    }

    /// Whether the current value is above zero.
    public var isInBoostTime: Bool { remainingSeconds > 0 }

    /// The current value of the script.
    public var remainingSeconds: Int {
        registrar.access(self, keyPath: \.remainingSeconds)
        return state.withLock { $0.current }
    }

    /// Moves to the next scripted value and posts it as the real manager would; past the end
    /// of the script the value is 0.
    public func advance() {
        let value = state.withLock { state -> Int in
            state.position += 1
            return state.current
        }
        post(value)
    }

    /// Sets the remaining time to `duration` (0 for zero or less) and posts it.
    public func startCountDown(duration: Int) {
        set(max(duration, 0))
    }

    /// Sets the remaining time to `duration` if it is 0, as the real manager does.
    public func startCountDownIfIdle(duration: Int) throws(BoostError) {
        guard duration > 0 else { throw .invalidDuration(duration) }
        let running = state.withLock { state -> Int? in
            guard state.current == 0, state.starting == nil else { return state.starting ?? state.current }
            state.script = [duration]
            state.position = 0
            return nil
        }
        if let running { throw .alreadyRunning(remainingSeconds: running) }
        post(duration)
    }

    /// Sets the remaining time to `duration` after `payment` succeeds, if it is 0 and no other
    /// paid start is under way — one atomic step, as the real manager does.
    public func startCountDownIfIdle(
        duration: Int, paidBy payment: (BoostGrant) throws(PurchaseError) -> Void
    ) throws(PurchaseError) {
        guard duration > 0 else { throw .boostNotStarted(.invalidDuration(duration)) }
        let running = state.withLock { state -> Int? in
            guard state.current == 0, state.starting == nil else { return state.starting ?? state.current }
            state.starting = duration
            return nil
        }
        if let running { throw .boostNotStarted(.alreadyRunning(remainingSeconds: running)) }
        do throws(PurchaseError) {
            try payment(BoostGrant(id: UUID().uuidString, endDate: Date().addingTimeInterval(TimeInterval(duration))))
        } catch {
            state.withLock { $0.starting = nil }
            throw error
        }
        state.withLock { $0 = State(script: [duration]) }
        post(duration)
    }

    /// Sets the remaining time to 0 and posts it.
    public func stopCountDown() {
        set(0)
    }

    private func set(_ value: Int) {
        state.withLock { $0 = State(script: [value]) }
        post(value)
    }

    private func post(_ value: Int) {
        registrar.willSet(self, keyPath: \.remainingSeconds)
        registrar.didSet(self, keyPath: \.remainingSeconds)
        NotificationChannel.boostTime.post(value, object: value, center: center)
    }
}

/// The stub takes part in Swift Observation like ``BoostTimeManager``: reading
/// ``remainingSeconds`` or ``isInBoostTime`` registers a dependency, and each ``advance()`` or
/// start or stop calls `onChange`, just before its post.
extension BoostTimeManagerStub: Observable {}
