import Foundation

extension NotificationChannel {
    /// How many posted values an ``NotificationChannel/values(center:object:buffering:)``
    /// sequence keeps while its consumer is busy.
    public enum Buffering: Sendable, Equatable {
        /// Keep only the newest `limit` values; older unread ones are dropped.
        ///
        /// `.newest(1)` — the default — suits state: a screen that falls behind skips straight
        /// to the current value instead of replaying every step.
        case newest(Int)
        /// Keep the oldest `limit` values; values posted while the buffer is full are dropped.
        case oldest(Int)
        /// Keep every value. Use it when each event matters and the consumer keeps up.
        case unbounded

        var streamPolicy: AsyncStream<Payload>.Continuation.BufferingPolicy {
            switch self {
            case .newest(let limit): .bufferingNewest(max(limit, 1))
            case .oldest(let limit): .bufferingOldest(max(limit, 1))
            case .unbounded: .unbounded
            }
        }
    }

    /// The values posted on this channel, as an asynchronous sequence.
    ///
    /// The observer is registered when this method is called, so nothing posted after the call
    /// is missed even if iteration starts later. It is removed when the sequence is dropped or
    /// when the task iterating it is cancelled, which also ends the iteration:
    ///
    /// ```swift
    /// let task = Task {
    ///     for await seconds in NotificationChannel.boostTime.values() {
    ///         render(seconds)
    ///     }
    /// }
    /// task.cancel()   // the loop ends and the observer is gone
    /// ```
    ///
    /// - Parameters:
    ///   - center: The notification center to observe.
    ///   - object: Only notifications whose `object` is this instance are delivered; `nil`
    ///     delivers all.
    ///   - buffering: What to keep while the consumer is busy; the newest value by default.
    ///     A limit below 1 is treated as 1.
    public func values(
        center: NotificationCenter = .default,
        object: AnyObject? = nil,
        buffering: Buffering = .newest(1)
    ) -> AsyncStream<Payload> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Payload.self, bufferingPolicy: buffering.streamPolicy)
        let token = observe(center: center, object: object) { value in
            continuation.yield(value)
        }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }
}
