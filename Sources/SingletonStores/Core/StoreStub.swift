import Foundation
import StoreObservation

/// The state of a stub that behaves like a store: it changes, posts each change on its own
/// notification center, and takes part in Swift Observation — so a view or a test that reads a
/// stub redraws when the stub changes, as it would with the production store.
///
/// A stub keeps one `StoreStub` and implements its contract on it, as a store does on its
/// ``StoreCore``:
///
/// ```swift
/// final class CounterStub: CounterContract {
///     let stub: StoreStub<Int>
///     init(count: Int = 0) { stub = StoreStub(count, channel: .counter) }
///     var count: Int { stub.state }
///     func increment() { stub.update { $0 += 1 } }
/// }
/// ```
///
/// A stub that never changes (`struct CounterStub { let count: Int; func increment() {} }`)
/// is enough for a test that only reads it. One that a screen or a test changes should keep its
/// state in a `StoreStub`: a preview, a UI test or a test of the screen then sees every change.
///
/// Each stub posts on a `NotificationCenter()` of its own unless you pass one, so stubs in tests
/// running in parallel never see each other's changes; pass the center a test observes to
/// check what the stub posts.
public final class StoreStub<State: Sendable & Equatable>: Sendable {
    /// The core that keeps the state, posts its changes and registers Observation reads.
    package let core: StoreCore<State>

    /// Creates a stub holding `initial`.
    ///
    /// - Parameters:
    ///   - initial: The state the stub starts with.
    ///   - channel: The channel changes are posted on: the production store's channel, so that
    ///     observers of the store observe the stub alike.
    ///   - center: The notification center to post to; a center of the stub's own by default.
    public init(
        _ initial: State,
        channel: NotificationChannel<StoreChange<State>>,
        center: NotificationCenter = NotificationCenter()
    ) {
        core = StoreCore(initial, channel: channel, center: center)
    }

    /// The current state. Reading it inside `withObservationTracking` (or a SwiftUI `body`)
    /// registers a dependency that the next change invalidates.
    public var state: State { core.state }

    /// The notification center the stub posts to.
    public var center: NotificationCenter { core.center }

    /// Changes the state in one locked transaction and posts the change, as
    /// ``StoreCore/update(_:)`` does.
    ///
    /// - Parameter body: The transaction; it must not read this stub's ``state``.
    /// - Returns: What `body` returns.
    @discardableResult
    public func update<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try core.update(body)
    }

    /// Replaces the state with `newValue`, posting a change if it differs.
    ///
    /// - Parameter newValue: The new state.
    public func set(_ newValue: State) {
        core.set(newValue)
    }

    /// Calls `handler` with every change the stub posts, until the token is cancelled.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each change.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        core.observe(on: delivery, handler)
    }
}
