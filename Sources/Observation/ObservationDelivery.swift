import Dispatch
import Foundation

/// Where an observer's handler runs.
///
/// ```swift
/// let now = channel.observe(on: .postingThread) { value in print(value) }  // synchronously, inside post
/// let later = channel.observe(on: .queue(backgroundQueue)) { value in print(value) }  // later, in order
/// ```
///
/// To run on the main actor, use
/// ``NotificationChannel/observeOnMainActor(center:object:_:)``, whose handler is
/// `@MainActor`-isolated.
public enum ObservationDelivery: Sendable {
    /// The handler runs synchronously on the thread that posts, before `post` returns.
    ///
    /// The cheapest delivery, and the only one where the poster knows the handler has run.
    case postingThread

    /// The handler is added to the queue as an operation; `post` does not wait for it.
    ///
    /// With a serial queue (`maxConcurrentOperationCount == 1`) handlers run in posting order.
    case queue(OperationQueue)
}
