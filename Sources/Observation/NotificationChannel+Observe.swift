import Dispatch
import Foundation

extension NotificationChannel {
    /// Calls `handler` with every value posted on this channel until the token is cancelled or
    /// deinitialised.
    ///
    /// ```swift
    /// let token = channel.observe(center: center) { value in print(value) }
    /// ```
    ///
    /// Once ``ObservationToken/cancel()`` has returned, `handler` is not called again, whatever
    /// the delivery and whichever thread posts (see ``ObservationToken/cancel()`` for the one
    /// exception, a token cancelled from inside its own handler).
    ///
    /// Each observer sees the values in the order they were posted, but the observers of one
    /// channel are called in the center's order, which is not promised: on Linux it changes from
    /// run to run. Code that needs one observer to run before another should be one observer.
    ///
    /// - Parameters:
    ///   - center: The notification center to observe.
    ///   - object: Only notifications whose `object` is this instance are delivered; `nil`
    ///     delivers all.
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each payload.
    /// - Returns: A token that keeps the observer registered. Discarding it removes the observer
    ///   at once.
    @inlinable
    public func observe(
        center: NotificationCenter = .default,
        object: AnyObject? = nil,
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (Payload) -> Void
    ) -> ObservationToken {
        let channel = self
        let gate = ObservationGate()
        let observer: any NSObjectProtocol
        switch delivery {
        case .postingThread:
            observer = center.addObserver(forName: name, object: object, queue: nil) { note in
                if let value = channel.payload(of: note) { gate.pass { handler(value) } }
            }
        case .queue(let queue):
            // Extract on the posting thread, then hand only the Sendable payload to the queue:
            // the poster never waits for the handler. The gate is checked when the operation
            // runs, so an operation still queued when the token is cancelled does nothing.
            observer = center.addObserver(forName: name, object: object, queue: nil) { note in
                guard let value = channel.payload(of: note) else { return }
                queue.addOperation { gate.pass { handler(value) } }
            }
        }
        return ObservationToken(center: center, observer: observer, gate: gate)
    }

    /// Calls a main-actor handler with every value posted on this channel.
    ///
    /// When the value is posted on the main thread, the handler runs before `post` returns;
    /// otherwise it is enqueued on the main queue, and handlers run in posting order.
    ///
    /// ```swift
    /// @MainActor final class TimerLabel {
    ///     var text = ""
    ///     var token: ObservationToken?
    ///     func bind() {
    ///         token = NotificationChannel.boostTime.observeOnMainActor { [weak self] seconds in
    ///             self?.text = "\(seconds)"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - center: The notification center to observe.
    ///   - object: Only notifications whose `object` is this instance are delivered; `nil`
    ///     delivers all.
    ///   - handler: Called on the main actor with each payload.
    /// - Returns: A token that keeps the observer registered.
    public func observeOnMainActor(
        center: NotificationCenter = .default,
        object: AnyObject? = nil,
        _ handler: @escaping @MainActor @Sendable (Payload) -> Void
    ) -> ObservationToken {
        let channel = self
        let gate = ObservationGate()
        // The gate is checked on the main actor, right before the handler runs, so a value still
        // queued for the main queue when the token is cancelled is dropped.
        let observer = center.addObserver(forName: name, object: object, queue: nil) { note in
            guard let value = channel.payload(of: note) else { return }
            if Thread.isMainThread {
                MainActor.assumeIsolated { gate.pass { handler(value) } }
            } else {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { gate.pass { handler(value) } }
                }
            }
        }
        return ObservationToken(center: center, observer: observer, gate: gate)
    }
}
