import Foundation
import SingletonStoresLocking

/// Keeps an observer registered for as long as it lives.
///
/// Every `observe` call returns a token. Store it where the observing object keeps its state;
/// when the token is cancelled or deinitialised, the observer is removed from its notification
/// center and its handler — with everything the handler captured — is released:
///
/// ```swift
/// @MainActor final class BoostPopup {
///     private(set) var text = ""
///     private var tokens: [ObservationToken] = []
///
///     init(center: NotificationCenter = .default) {
///         tokens.append(NotificationChannel.boostTime.observeOnMainActor(center: center) { [weak self] seconds in
///             self?.text = "\(seconds) s left"
///         })
///     }
///     // No deinit needed: dropping `tokens` removes the observers.
/// }
/// ```
///
/// A token is `Sendable`; cancelling it from any thread, any number of times, is safe. Once
/// ``cancel()`` has returned, the handler is not called again and is not running on any other
/// thread (see ``cancel()`` for the details).
public final class ObservationToken: Sendable, Hashable {
    private let registration: Locked<Registration?>
    /// The gate the handler's calls go through; `nil` for a token made with ``init(onCancel:)``.
    private let gate: ObservationGate?

    /// Wraps the opaque observer object that `NotificationCenter.addObserver` returns, and the
    /// gate its block calls the handler through.
    @usableFromInline
    init(center: NotificationCenter, observer: any NSObjectProtocol, gate: ObservationGate) {
        registration = Locked(Registration(center: center, observer: observer))
        self.gate = gate
    }

    /// A token for an observer that a poster calls itself, through `gate`: cancelling closes the
    /// gate, then runs `onCancel`, which unregisters the observer.
    @usableFromInline
    init(gate: ObservationGate, onCancel: @escaping @Sendable () -> Void) {
        registration = Locked(Registration(cleanUp: onCancel))
        self.gate = gate
    }

    /// Creates a token that runs `onCancel` once, when it is cancelled or deinitialised.
    ///
    /// Use it to tie other clean-up (finishing a stream, removing a second observer) to a
    /// token's lifetime.
    ///
    /// - Parameter onCancel: The clean-up to run. It runs outside any lock.
    public init(onCancel: @escaping @Sendable () -> Void) {
        registration = Locked(Registration(cleanUp: onCancel))
        gate = nil
    }

    /// Whether the observer is still registered.
    public var isActive: Bool {
        registration.withLock { $0 != nil }
    }

    /// Removes the observer: once this method returns, the handler is not called again.
    ///
    /// This holds for every delivery — on the posting thread, on an `OperationQueue`, on the
    /// main actor — even while other threads are posting: a value posted before the cancel but
    /// not yet handed to the handler is dropped (a queued operation or main-queue block finds
    /// the token cancelled and does nothing). A handler call already running on another thread
    /// is waited for, so when `cancel()` returns the handler is not running anywhere and
    /// whatever it uses can be torn down.
    ///
    /// Because it waits, never call `cancel()` while holding something the handler waits for
    /// (a lock it takes, a queue it calls `sync` on): the two would wait for each other.
    ///
    /// A handler may cancel its own token, or another observer's. Called from inside any
    /// handler, `cancel()` still guarantees that no call starts once it returns, but it does not
    /// wait for calls already running on other threads — they may still be finishing. Waiting
    /// there could hang: two handlers cancelling each other's tokens at the same moment, or one
    /// handler running on two threads and cancelling its own, would wait for each other forever.
    ///
    /// Calling it again does nothing more; a second call made while the first one waits waits
    /// too.
    public func cancel() {
        gate?.close()
        let taken = registration.withLock { current -> Registration? in
            let value = current
            current = nil
            return value
        }
        taken?.end()
    }

    deinit {
        cancel()
    }

    /// Tokens are equal when they are the same token.
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Stores a token in a collection, as Combine's `AnyCancellable.store(in:)` does.
    ///
    /// - Parameter tokens: The collection that keeps the token alive.
    public func store(in tokens: inout [ObservationToken]) {
        tokens.append(self)
    }

    /// Stores a token in a set.
    ///
    /// - Parameter tokens: The set that keeps the token alive.
    public func store(in tokens: inout Set<ObservationToken>) {
        tokens.insert(self)
    }
}

/// What a live token owns: either a NotificationCenter registration or a clean-up closure.
private struct Registration: @unchecked Sendable {
    // `any NSObjectProtocol` is not Sendable; the center's observer object is only handed back
    // to `removeObserver`, which NotificationCenter allows from any thread.
    private let center: NotificationCenter?
    private let observer: (any NSObjectProtocol)?
    private let cleanUp: (@Sendable () -> Void)?

    init(center: NotificationCenter, observer: any NSObjectProtocol) {
        self.center = center
        self.observer = observer
        self.cleanUp = nil
        RegistrationLedger.added(to: center)
    }

    init(cleanUp: @escaping @Sendable () -> Void) {
        self.center = nil
        self.observer = nil
        self.cleanUp = cleanUp
    }

    func end() {
        if let center, let observer {
            center.removeObserver(observer)
            RegistrationLedger.removed(from: center)
        }
        cleanUp?()
    }
}
