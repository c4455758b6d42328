import Timers

/// When a persisted store's `set` reaches the disk: at once (the default), or coalesced, at most
/// once per window, for a value that changes in bursts — a slider bound to a setting.
///
/// ```swift
/// let volume = ValueStore(
///     key: "volume", default: 0.5, storage: storage,
///     writePolicy: .coalescing(within: .milliseconds(500)))
/// for step in 1...120 { try volume.set(Double(step) / 120) }  // a drag: memory and observers at once
/// try volume.flush()  // on disk now, rather than within 500 ms
/// ```
///
/// A SwiftUI slider binds to it as to any value: `Binding(get: { volume.value }, set: { try? volume.set($0) })`.
///
/// With ``coalescing(within:clock:)``, ``ValueStore/set(_:)`` changes the value in memory and
/// posts the change at once; the disk gets the newest value at the end of the window the first
/// unwritten set opened: a drag of 120 changes a second writes twice a second, not 120 times.
/// Each write is the same durable write as an immediate one, taken under the document's lock.
/// `update(_:)` stays a transaction decided from the disk, written at once (with a pending value
/// first, in the same write). <doc:PersistenceAndRecovery> ("Coalesced writes") says what a kill
/// inside the window loses — the values set within it, never anything older — and how to
/// ``ValueStore/flush()`` before the app is suspended (a normal exit writes pending values by
/// itself, waiting up to the storage's lock timeout; a value it could not write is reported as
/// lost and the process exits with ``valuesLostExitStatus``).
public struct StoreWritePolicy: Sendable, CustomStringConvertible {
    /// The status a process exits with when it exited normally while a coalesced value could
    /// not be written (another process held the store's lock past the storage's lock timeout,
    /// the disk was full): 75, `EX_TEMPFAIL` of sysexits.h, instead of the status it was
    /// exiting with. Each value lost is reported first (``StoreIssue/pendingValueLost(key:_:)``,
    /// printed to standard error by default), naming its store.
    public static let valuesLostExitStatus: Int32 = 75

    /// The longest window: one minute. Longer windows are clamped to it.
    public static let maximumWindow = Duration.seconds(60)

    /// How long a set may wait for the disk; `nil` when every set is written at once.
    public let window: Duration?

    // The clock the window is measured on: a `ManualClock` in tests.
    let clock: ErasedClock?

    private init(window: Duration?, clock: ErasedClock?) {
        self.window = window
        self.clock = clock
    }

    /// Every set is written to disk before it returns, as one durable write (the default).
    public static var immediate: StoreWritePolicy { StoreWritePolicy(window: nil, clock: nil) }

    /// Sets are written at most once per `window`, always the newest value, and the last one
    /// always: the first set not yet on disk opens a window, and at its end the value the store
    /// holds then is written.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let volume = ValueStore(
    ///     key: "volume", default: 0.5, storage: storage,
    ///     writePolicy: .coalescing(within: .seconds(1), clock: clock))
    /// try volume.set(0.8)
    /// #expect(storage.value(Double.self, forKey: "volume") == nil)  // not on disk yet
    /// await clock.advance(by: .seconds(1))
    /// #expect(storage.value(Double.self, forKey: "volume") == 0.8)
    /// ```
    ///
    /// - Parameters:
    ///   - window: How long a set may wait for the disk: what a kill of the process may lose.
    ///     Zero or less is ``immediate``; more than ``maximumWindow`` is clamped to it.
    ///   - clock: The clock the window is measured on; `ContinuousClock()` by default, a
    ///     `ManualClock` in tests.
    public static func coalescing(
        within window: Duration, clock: some Clock<Duration> = ContinuousClock()
    ) -> StoreWritePolicy {
        guard window > .zero else { return .immediate }
        // Its writes sleep on the clock: no ticker thread for a policy.
        return StoreWritePolicy(window: min(window, maximumWindow), clock: ErasedClock(clock, ticking: false))
    }

    /// `immediate`, or `coalescing(within: <window>)`.
    public var description: String {
        window.map { "coalescing(within: \($0))" } ?? "immediate"
    }
}
