import Foundation
import Observation
import StoreObservation
import SingletonStoresLocking

/// The building block of a store: locked state, intent-based writes and change notifications.
///
/// A store owns one `StoreCore`, exposes its state read-only, and changes it only through
/// intent methods that call ``update(_:)``. The core does the rest: the state lives in a
/// `Mutex`, a read-modify-write is one locked transaction, and each committed change is posted
/// once — after the lock is released — with the old and the new value. A write that leaves the
/// state unchanged posts nothing.
///
/// ```swift
/// extension NotificationChannel where Payload == StoreChange<Int> {
///     static let counter = NotificationChannel("CounterStore.changed")
/// }
///
/// final class CounterStore: Sendable {
///     static let shared = CounterStore()
///     private let core: StoreCore<Int>
///
///     init(center: NotificationCenter = .default) {
///         core = StoreCore(0, channel: .counter, center: center)
///     }
///     var count: Int { core.state }
///     func increment() { core.update { $0 += 1 } }
/// }
/// ```
///
/// ## Delivery order
/// Changes are posted in the order they were committed, each exactly once, and a change
/// reaches no observer before the previous one has reached them all. An observer may write to
/// the store it observes: its change is delivered after its handler returns, never nested
/// inside it. The core's own observers (``observe(on:_:)``) are called in the order they were
/// registered; the observers of a notification center in an order of the center's own, which
/// is not promised. <doc:SwiftUIAndUIKit> ("In what order") gives the details.
///
/// ## Performance
/// Reads and writes are `@inlinable`, so they are specialised for the store's `State` where
/// they are called: a read is a lock and a copy, with no run-time generic metadata look-up and
/// no allocation.
public final class StoreCore<State: Sendable & Equatable>: Sendable {
    @usableFromInline let storage: Locked<Storage>
    /// The channel every committed change is posted on.
    public let channel: NotificationChannel<StoreChange<State>>
    /// The notification center changes are posted to.
    public let center: NotificationCenter
    @usableFromInline let classicObject: @Sendable (StoreChange<State>) -> (any Sendable)?
    // Swift Observation's bookkeeping: reads of `state` register with it, and each committed
    // change is announced through it after unlocking, just before its post.
    @usableFromInline let registrar = ObservationRegistrar()
    // `\.state` made once: in a generic class a key-path literal is instantiated at run time,
    // which would cost an allocation on every read.
    @usableFromInline let stateKeyPath: KeyPath<StoreCore<State>, State> & Sendable = \.state
    // The observers registered with `observe` and `changes`, which the core calls itself.
    @usableFromInline let observers: DirectObservers<StoreChange<State>>
    // The `userInfo` of the notifications, reused from post to post by the posting thread.
    @usableFromInline let changeUserInfo = ChangeUserInfoBuffer()

    @usableFromInline struct Storage: ~Copyable {
        @usableFromInline var state: State
        @usableFromInline var outbox = Outbox<StoreChange<State>>()

        init(state: State) { self.state = state }
    }

    /// Creates a core holding `initial`.
    ///
    /// - Parameters:
    ///   - initial: The state the store starts with.
    ///   - channel: The channel changes are posted on. Give each store a channel of its own.
    ///   - center: The notification center to post to; `.default` in apps, a fresh
    ///     `NotificationCenter()` in each test.
    ///   - object: The notification `object` for classic observers, derived from each change;
    ///     `nil` by default. A countdown store might post its remaining seconds here.
    public init(
        _ initial: State,
        channel: NotificationChannel<StoreChange<State>>,
        center: NotificationCenter = .default,
        object: @escaping @Sendable (StoreChange<State>) -> (any Sendable)? = { _ in nil }
    ) {
        storage = Locked(Storage(state: initial))
        self.channel = channel
        self.center = center
        self.classicObject = object
        self.observers = DirectObservers(center: center)
    }

    /// The current state: a snapshot taken under the lock.
    @inlinable
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return storage.withLock { $0.state }
    }

    /// Reads a part of the state under the lock, without copying the rest.
    ///
    /// - Parameter body: Derives a value from the state. It runs under the lock: keep it short
    ///   and call nothing outside the state.
    @inlinable
    public func read<Result>(_ body: (borrowing State) throws -> Result) rethrows -> Result {
        registrar.access(self, keyPath: stateKeyPath)
        return try storage.withLock { try body($0.state) }
    }

    /// Changes the state in one locked transaction and posts the change after unlocking.
    ///
    /// The body sees the current state and may change it and return a result; whatever it
    /// decides is committed atomically with what it read, so concurrent callers never lose an
    /// update. If the body throws, the state is left as it was and nothing is posted.
    ///
    /// ```swift
    /// let left = try core.update { cart in
    ///     guard cart.items > 0 else { throw CartError.empty }
    ///     cart.items -= 1
    ///     return cart.items
    /// }
    /// ```
    ///
    /// Inside `body`, read and change the state only through its argument. The lock is not
    /// recursive: reading ``state`` of the same core there, or calling `update` again, stops the
    /// program with "Recursive call to lock Mutex" — the most natural slip is a helper property
    /// such as `var count: Int { core.state.count }` used inside the body; pass the argument to
    /// it instead.
    ///
    /// - Parameter body: The transaction. It runs under the store's lock: it must not post,
    ///   call observers, read this core's ``state``, or call any other store.
    /// - Returns: What `body` returns.
    @discardableResult
    @inlinable
    public func update<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try update(origin: .local, body)
    }

    /// ``update(_:)``, recording where the change came from (a store following its document
    /// commits what another process wrote with `.otherProcess`).
    @discardableResult
    @inlinable
    package func update<Result, Failure: Error>(
        origin: StoreChange<State>.Origin,
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // The committing thread that finds no delivery in progress takes its own change
        // straight out of the transaction and posts it; changes committed meanwhile (by other
        // threads, or by observers writing back) queue in the outbox behind it.
        let (result, change) = try storage.withLock {
            storage throws(Failure) -> (Result, StoreChange<State>?) in
            var working = storage.state
            let result = try body(&working)
            guard working != storage.state else { return (result, nil) }
            let change = StoreChange(old: storage.state, new: working, origin: origin)
            storage.state = working
            return (result, storage.outbox.deliverOrQueue(change))
        }
        if let change { deliver(first: change) }
        return result
    }

    /// Posts the current state as a change to itself, in order with the changes being
    /// posted: an observer registered after the core was made catches up on what it missed.
    package func postCurrentState() {
        let change = storage.withLock { storage -> StoreChange<State>? in
            storage.outbox.deliverOrQueue(StoreChange(old: storage.state, new: storage.state, origin: .local))
        }
        if let change { deliver(first: change) }
    }

    /// Replaces the state with `newValue`, posting a change if it differs.
    ///
    /// - Parameter newValue: The new state.
    public func set(_ newValue: State) {
        update { $0 = newValue }
    }

    /// Posts `first`, then the changes queued meanwhile, oldest first, until none are left.
    /// Runs with the lock released.
    @inlinable
    func deliver(first: StoreChange<State>) {
        post(first)
        while true {
            let batch = storage.withLock { $0.outbox.takeBatch() }
            if batch.isEmpty { return }
            for change in batch { post(change) }
        }
    }

    @inlinable
    func post(_ change: StoreChange<State>) {
        // Observation first: an `onChange` (which runs in `willSet`) and a notification observer
        // both find the store already holding `change.new`.
        registrar.willSet(self, keyPath: stateKeyPath)
        registrar.didSet(self, keyPath: stateKeyPath)
        // The core's own observers first, in the order they were registered, then the
        // notification, for channel observers and classic ones.
        observers.post(change)
        do {
            let info = changeUserInfo.fill(payload: change, old: change.old, new: change.new)
            if let object = classicObject(change) {
                center.post(name: channel.name, object: object, userInfo: info)
            } else {
                center.post(name: channel.name, object: nil, userInfo: info)
            }
        }
        // `info` is gone: unless an observer kept the notification, the table is the buffer's
        // alone again, and clearing it (and the next post) writes in place.
        changeUserInfo.clear(StoreChange<State>.self, State.self)
    }
}

extension StoreCore {
    /// Calls `handler` with every change this core posts, until the token is cancelled.
    ///
    /// The core calls its observers itself, in the order they were registered, right before it
    /// posts the change to its notification center; they see this core's changes only (not
    /// other posts with the channel's name: observe the channel for those). Once
    /// `ObservationToken.cancel()` has returned, `handler` is not called again, as with
    /// `NotificationChannel.observe(center:object:on:_:)`.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each committed change.
    /// - Returns: A token that keeps the observer registered. Discarding it removes the observer
    ///   at once.
    @inlinable
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        observers.observe(on: delivery, handler)
    }

    /// The changes this core posts, as an asynchronous sequence; see
    /// `NotificationChannel.values(center:object:buffering:)` for the buffering and for when the
    /// observer is removed. Like ``observe(on:_:)``, it sees this core's changes only.
    ///
    /// - Parameter buffering: What to keep while the consumer is busy.
    public func changes(
        buffering: NotificationChannel<StoreChange<State>>.Buffering = .newest(1)
    ) -> AsyncStream<StoreChange<State>> {
        observers.values(buffering: buffering)
    }
}

/// A store core takes part in Swift Observation: reading ``StoreCore/state`` or calling
/// ``StoreCore/read(_:)`` inside `withObservationTracking` — and so inside a SwiftUI view's
/// `body` — registers a dependency, and each committed change calls its `onChange` once, on the
/// thread that committed the change, after the lock is released. A write that leaves the state
/// equal changes nothing and triggers nothing.
///
/// The dependency is on the whole state: a view that reads one field of a struct state is
/// invalidated by a change to any field. Keep state that changes on its own schedule in a core
/// of its own.
extension StoreCore: Observable {}
