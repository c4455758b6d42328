import Foundation
import StoreObservation
import SingletonStoresLocking

/// Records every channel value posted on a notification center, in posting order, for tests.
///
/// Attach a recorder to the center your stores post to, act, then assert on what was posted —
/// across any number of stores at once:
///
/// ```swift
/// @Test func checkoutUpdatesEverything() {
///     let center = NotificationCenter()
///     let cart = CartStore(center: center), wallet = WalletStore(balance: 500, center: center)
///     cart.add()
///     cart.add()
///     let recorder = ChangeRecorder(center: center)
///
///     checkout(cart: cart, wallet: wallet)  // two items at 190 each
///
///     #expect(recorder.changes == [
///         RecordedChange(.cart, StoreChange(old: 2, new: 0)),
///         RecordedChange(.wallet, StoreChange(old: 500, new: 120)),
///     ])
///     #expect(recorder.values(of: .wallet) == [StoreChange(old: 500, new: 120)])
/// }
/// ```
///
/// It captures every notification that carries a `NotificationChannel`
/// payload — every `StoreCore` change and every typed post — and ignores the rest. Recording
/// stops when the recorder is deinitialised or ``stop()`` is called.
public final class ChangeRecorder: Sendable {
    private let log = RecordingLog()
    private let token: ObservationToken

    /// Starts recording the channel values posted on `center`.
    ///
    /// - Parameter center: The center to record; use one per test.
    public convenience init(center: NotificationCenter) {
        self.init(center: center, onRecord: nil)
    }

    /// Starts recording, calling `onRecord` (outside the lock) after each recorded change.
    init(center: NotificationCenter, onRecord: (@Sendable () -> Void)?) {
        let log = self.log
        let observer = center.addObserver(forName: nil, object: nil, queue: nil) { note in
            guard let payload = note.userInfo?[NotificationChannel<Int>.payloadKey] else { return }
            log.entries.withLock { $0.append(RecordedChange(name: note.name, payload: payload)) }
            onRecord?()
        }
        token = ObservationToken(onCancel: { [center, observer = UncheckedObserver(observer)] in
            center.removeObserver(observer.value)
        })
    }

    /// Everything recorded so far, oldest first.
    public var changes: [RecordedChange] {
        log.entries.withLock { $0 }
    }

    /// The payloads recorded on one channel, oldest first.
    ///
    /// - Parameter channel: The channel to filter by.
    public func values<Payload>(of channel: NotificationChannel<Payload>) -> [Payload] {
        changes.compactMap { $0.name == channel.name ? $0.payload as? Payload : nil }
    }

    /// The new states recorded on a store's channel, oldest first.
    ///
    /// - Parameter channel: A store's change channel.
    public func newValues<State>(of channel: NotificationChannel<StoreChange<State>>) -> [State] {
        values(of: channel).map(\.new)
    }

    /// Forgets what was recorded so far and keeps recording.
    public func removeAll() {
        log.entries.withLock { $0.removeAll() }
    }

    /// Stops recording. What was recorded stays readable.
    public func stop() {
        token.cancel()
    }
}

/// The recorded entries, in a class so the observer closure can share them with the recorder.
private final class RecordingLog: Sendable {
    let entries = Locked<[RecordedChange]>([])
}

/// The observer object NotificationCenter returns; only ever handed back to `removeObserver`.
private struct UncheckedObserver: @unchecked Sendable {
    let value: any NSObjectProtocol
    init(_ value: any NSObjectProtocol) { self.value = value }
}
