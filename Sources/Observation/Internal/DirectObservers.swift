import Dispatch
import Foundation
import SingletonStoresLocking

/// Observers that a poster calls itself, in the order they were registered, without going
/// through NotificationCenter: what a store core keeps for the observers of its own changes.
///
/// NotificationCenter looks its observers up by name on every post, gathers them into a fresh
/// array and hands each one the notification as `Any`, which each observer casts back and
/// searches for its payload. Here a post copies the current list under the lock (one retain),
/// releases the lock and calls each entry with the typed value. Every call goes through the
/// observer's ``ObservationGate``, so tokens keep the promises of ``ObservationToken/cancel()``;
/// a handler may cancel its own token or register new observers, which the post under way does
/// not call (it works on the list as it was when it began).
///
/// A cancelled observer leaves an empty slot behind rather than moving the ones after it, so
/// removing any of n observers costs a binary search, not a move of the rest; once empty slots
/// outnumber the live ones, the list is compacted in one pass (amortised O(1) per removal).
/// Slots keep their order, so compaction keeps registration order.
@usableFromInline
package final class DirectObservers<Payload: Sendable>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        /// Increases along the list, so a token finds its entry by binary search.
        @usableFromInline let id: UInt64
        /// `nil` once the observer is removed: an empty slot, skipped by posts and dropped at
        /// the next compaction.
        @usableFromInline var call: (@Sendable (Payload) -> Void)?

        @inlinable init(id: UInt64, call: @escaping @Sendable (Payload) -> Void) {
            self.id = id
            self.call = call
        }
    }

    @usableFromInline
    struct List: Sendable {
        @usableFromInline var entries: [Entry] = []
        @usableFromInline var nextID: UInt64 = 0
        /// How many of `entries` are empty slots.
        @usableFromInline var emptySlots = 0

        @inlinable init() {}
    }

    @usableFromInline let list = Locked(List())
    /// The center the observers are counted on (see `storeObservationObserverCount`).
    @usableFromInline let center: NotificationCenter

    /// An empty list whose observers count as registered on `center`.
    package init(center: NotificationCenter) {
        self.center = center
    }

    /// Calls every observer registered now with `value`, in registration order, on this thread
    /// (an observer with a queue or on the main actor is handed the value there). No lock is held
    /// while an observer runs.
    @inlinable
    package func post(_ value: Payload) {
        let entries = list.withLock { $0.entries }
        for entry in entries { entry.call?(value) }
    }

    /// Registers `handler`; see `NotificationChannel.observe(center:object:on:_:)` for the
    /// deliveries and what cancelling the token promises.
    // Inlinable, like `add` and `remove`, so that they are specialised for the payload where a
    // store is observed: generic, each call would look up the metadata of the list's types.
    @inlinable
    package func observe(
        on delivery: ObservationDelivery,
        _ handler: @escaping @Sendable (Payload) -> Void
    ) -> ObservationToken {
        let gate = ObservationGate()
        switch delivery {
        case .postingThread:
            return add(gate: gate) { value in gate.pass { handler(value) } }
        case .queue(let queue):
            // The gate is checked when the operation runs, so an operation still queued when the
            // token is cancelled does nothing.
            return add(gate: gate) { value in queue.addOperation { gate.pass { handler(value) } } }
        }
    }

    /// The posted values as an asynchronous sequence; see
    /// `NotificationChannel.values(center:object:buffering:)`.
    package func values(buffering: NotificationChannel<Payload>.Buffering) -> AsyncStream<Payload> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Payload.self, bufferingPolicy: buffering.streamPolicy)
        let token = observe(on: .postingThread) { value in continuation.yield(value) }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }

    @inlinable
    func add(gate: ObservationGate, _ call: @escaping @Sendable (Payload) -> Void) -> ObservationToken {
        let id = list.withLock { list -> UInt64 in
            let id = list.nextID
            list.nextID &+= 1
            list.entries.append(Entry(id: id, call: call))
            return id
        }
        RegistrationLedger.added(to: center)
        return ObservationToken(gate: gate) { [self] in remove(id) }
    }

    @inlinable
    func remove(_ id: UInt64) {
        let removed = list.withLock { list -> (@Sendable (Payload) -> Void)? in
            var low = 0
            var high = list.entries.count
            while low < high {
                let middle = (low + high) / 2
                if list.entries[middle].id < id { low = middle + 1 } else { high = middle }
            }
            guard low < list.entries.count, let call = list.entries[low].call else { return nil }
            if low == list.entries.count - 1 {
                // The newest: drop it, and the empty slots just before it.
                list.entries.removeLast()
                while let last = list.entries.last, last.call == nil {
                    list.entries.removeLast()
                    list.emptySlots -= 1
                }
            } else {
                list.entries[low].call = nil
                list.emptySlots += 1
                if list.emptySlots * 2 > list.entries.count {
                    // Empty slots hold no handler, so compacting releases nothing under the lock.
                    list.entries.removeAll { $0.call == nil }
                    list.emptySlots = 0
                }
            }
            return call
        }
        guard removed != nil else { return }
        RegistrationLedger.removed(from: center)
        // `removed`, the handler, is released here: after the lock, since releasing what a
        // handler captured may run any deinit.
    }

    /// The slots the list holds now, empty ones included: what the tests read to check that a
    /// removal leaves the other observers where they are.
    package var slotCount: Int { list.withLock { $0.entries.count } }
}
