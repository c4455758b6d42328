import Foundation
import SingletonStoresLocking

/// A purchase backend that plays back scripted outcomes, for tests and previews.
///
/// ```swift
/// let clock = ManualClock()
/// let backend = ScriptedPurchaseBackend(
///     [.succeed, .fail("card declined"), .delay(.seconds(2), then: .cancel)], clock: clock)
/// ```
///
/// Each purchase takes the next step; once the script is used up, purchases succeed. Delays
/// sleep on the injected clock, so tests advance a `ManualClock` (from Timers) instead of waiting.
public final class ScriptedPurchaseBackend: PurchaseBackend {
    /// One scripted purchase outcome.
    public indirect enum Step: Sendable, Equatable {
        /// The purchase succeeds with a fresh receipt.
        case succeed
        /// The purchase fails with `reason`.
        case fail(String)
        /// The user cancels.
        case cancel
        /// Waits `duration` on the clock, then does `step`.
        case delay(Duration, then: Step)
    }

    private let steps: Locked<(remaining: [Step], count: Int)>
    private let receipts: [PurchaseReceipt]
    private let sleep: @Sendable (Duration) async throws -> Void
    private let date: Date

    /// Creates a scripted backend.
    ///
    /// - Parameters:
    ///   - script: The outcomes of the next purchases, in order.
    ///   - receipts: What ``restore()`` returns.
    ///   - clock: The clock delays sleep on.
    ///   - date: The date put on receipts.
    public init(
        _ script: [Step] = [],
        receipts: [PurchaseReceipt] = [],
        clock: some Clock<Duration> = ContinuousClock(),
        date: Date = Date(timeIntervalSince1970: 0)
    ) {
        steps = Locked((script, 0))
        self.receipts = receipts
        self.sleep = { try await clock.sleep(for: $0) }
        self.date = date
    }

    /// How many purchases were asked for.
    public var purchaseCount: Int { steps.withLock { $0.count } }

    /// Plays the next scripted step.
    public func purchase(_ product: PurchaseProduct) async throws(PurchaseError) -> PurchaseOutcome {
        let (step, number) = steps.withLock { steps -> (Step, Int) in
            steps.count += 1
            return (steps.remaining.isEmpty ? .succeed : steps.remaining.removeFirst(), steps.count)
        }
        return try await play(step, product: product, number: number)
    }

    /// The receipts given at init.
    public func restore() async throws(PurchaseError) -> [PurchaseReceipt] {
        receipts
    }

    private func play(_ step: Step, product: PurchaseProduct, number: Int) async throws(PurchaseError) -> PurchaseOutcome {
        switch step {
        case .succeed:
            return .purchased(PurchaseReceipt(id: "scripted-\(number)", product: product, date: date))
        case .fail(let reason):
            throw .failed(reason: reason)
        case .cancel:
            return .cancelled
        case .delay(let duration, let next):
            do { try await sleep(duration) } catch { return .cancelled }
            return try await play(next, product: product, number: number)
        }
    }
}
