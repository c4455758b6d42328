/// Events committed under a lock and delivered in commit order outside it, by one thread at a
/// time.
///
/// Keep an `Outbox` inside the state a ``Locked`` guards. A transaction queues its events (or
/// claims them for immediate delivery); after unlocking, the thread that claimed delivery hands
/// them out, batch by batch, until none are left. Other threads, and handlers that cause new
/// events while being called, only queue: their events are delivered after the current ones,
/// never nested, so handlers may call back into the object without deadlock.
///
/// ```swift
/// let first = state.withLock { $0.outbox.deliverOrQueue(change) }  // commit and queue
/// guard let first else { return }           // another thread is delivering: it posts ours too
/// deliver(first)
/// while true {
///     let batch = state.withLock { $0.outbox.takeBatch() }
///     if batch.isEmpty { return }            // an empty batch ended the delivery
///     batch.forEach(deliver)
/// }
/// ```
@usableFromInline
package struct Outbox<Event> {
    @usableFromInline var pending: [Event] = []
    @usableFromInline var isDelivering = false

    /// An empty outbox with no delivery in progress.
    @inlinable
    package init() {}

    /// Queues `event`; claim delivery with ``claim()`` before releasing the lock.
    @inlinable
    package mutating func append(_ event: Event) {
        pending.append(event)
    }

    /// Makes the caller the deliverer if events are queued and nobody delivers them yet.
    ///
    /// - Returns: Whether the caller must now deliver (with ``takeBatch()``) once unlocked.
    @inlinable
    package mutating func claim() -> Bool {
        guard !isDelivering, !pending.isEmpty else { return false }
        isDelivering = true
        return true
    }

    /// Hands `event` back for the caller to deliver at once if nobody is delivering — the caller
    /// becomes the deliverer — or queues it behind the delivery in progress and returns `nil`.
    @inlinable
    package mutating func deliverOrQueue(_ event: Event) -> Event? {
        guard !isDelivering else {
            pending.append(event)
            return nil
        }
        isDelivering = true
        return event
    }

    /// Everything queued, oldest first, for the deliverer. An empty batch ends the delivery.
    @inlinable
    package mutating func takeBatch() -> [Event] {
        guard !pending.isEmpty else {
            isDelivering = false
            return []
        }
        defer { pending = [] }
        return pending
    }
}

extension Outbox: Sendable where Event: Sendable {}
