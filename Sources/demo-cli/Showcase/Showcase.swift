import Foundation
import SingletonStoresLocking
import StoreObservation
import Stores
import Timers

/// The showcase: a boost counting down on two screens, the main screen and the boost popup
/// (opened 0.4 s after the boost starts, as in the QA report where they showed 12:34 and 12:35).
///
/// ```swift
/// var sink = ConsoleShowcaseSink(console: console)
/// let boost = BoostTimeManager(clock: clock, storage: InMemoryStorage(), center: center)
/// await Showcase.runShared(seconds: 10, clock: clock, boost: boost, center: center,
///                          initial: state, sink: &sink)
/// ```
///
/// Everything that changes the screens is an event handled one at a time on the showcase's
/// task, as a UI run loop would: the store's notifications, the popup opening, its own timers in
/// naive mode. After each event the sink draws the new state.
enum Showcase {
    /// How long after the boost starts the popup opens.
    static let popupDelay = Duration.milliseconds(400)

    /// The "after": both screens redraw only from `boost` — the main screen from its
    /// notifications on `center`, the popup from Swift Observation — so they always show the
    /// same time. The popup reads the store when it opens and closes when the
    /// boost ends; then the showcase returns.
    ///
    /// The display draws when it has caught up with the store (the main screen shows what the
    /// store says now). The one moment it has not is when the popup opens just as a new second
    /// starts, before that second's notification arrived: the notification follows at once and
    /// draws both screens together.
    static func runShared<Sink: ShowcaseSink>(
        seconds: Int,
        clock: some Clock<Duration>,
        boost: BoostTimeManager,
        center: NotificationCenter,
        initial: ShowcaseState,
        sink: inout Sink
    ) async {
        let (events, continuation) = AsyncStream.makeStream(of: Request.self)
        // Two paths from one store: the main screen follows the NotificationCenter posts (as
        // UIKit code does), the popup follows Swift Observation (as a SwiftUI view does). For
        // each tick, Observation reports just before the post, with the same value.
        let ticks = NotificationChannel.boostTime.observe(center: center) { continuation.yield(.event(.storeTick($0))) }
        let observed = ObservationLoop({ boost.remainingSeconds }) { continuation.yield(.event(.observedTick($0))) }
        let ends = NotificationChannel.boostEnded.observe(center: center) { _ in continuation.yield(.event(.popupClosed)) }
        defer {
            ticks.cancel()
            observed.cancel()
            ends.cancel()
        }
        // The boost starts first, so its first notification is queued before the popup can
        // ask to open, however late the opener's task runs.
        let start = clock.now
        boost.startCountDown(duration: seconds)
        let opener = Task {
            try await clock.sleep(until: start.advanced(by: popupDelay), tolerance: nil)
            continuation.yield(.openPopup)
        }
        defer { opener.cancel() }

        var state = initial
        for await request in events {
            guard sink.isOpen else { return }
            switch request {
            case .openPopup:
                guard state.popup == .notOpen else { continue }
                state.apply(.popupOpened(boost.remainingSeconds))
            case .event(let event):
                state.apply(event)
            }
            if state.popup == .closed {
                sink.finish(state)
                return
            }
            if state.main == .showing(boost.remainingSeconds) { sink.draw(state) }
        }
    }

    /// The "before": each screen counts down with its own repeating 1-second
    /// timer. The popup opens 0.4 s later with the value the main screen shows, then ticks on
    /// its own schedule, 0.4 s behind: after every main-screen tick the two disagree until the
    /// popup's tick.
    static func runNaive<Sink: ShowcaseSink>(
        seconds: Int,
        clock: some Clock<Duration>,
        initial: ShowcaseState,
        sink: inout Sink
    ) async {
        let (events, continuation) = AsyncStream.makeStream(of: Request.self)
        let start = clock.now
        let mainTimer = Task {
            for elapsed in 1...max(seconds, 1) {
                try await clock.sleep(until: start.advanced(by: .seconds(elapsed)), tolerance: nil)
                continuation.yield(.event(.mainTick(max(seconds - elapsed, 0))))
            }
        }
        let opener = Task {
            try await clock.sleep(until: start.advanced(by: popupDelay), tolerance: nil)
            continuation.yield(.openPopup)
        }
        var popupTimer: Task<Void, any Error>?
        defer {
            mainTimer.cancel()
            opener.cancel()
            popupTimer?.cancel()
        }

        var state = initial
        state.apply(.mainTick(seconds))
        sink.draw(state)
        for await request in events {
            guard sink.isOpen else { return }
            switch request {
            case .openPopup:
                let value = state.main.seconds ?? seconds
                state.apply(.popupOpened(value))
                popupTimer = popupCountdown(from: value, clock: clock, continuation: continuation)
            case .event(let event):
                state.apply(event)
            }
            if state.isFinished {
                sink.finish(state)
                return
            }
            sink.draw(state)
        }
    }

    /// The naive popup's own timer: one tick a second from the moment it opens, then it closes.
    private static func popupCountdown<C: Clock<Duration>>(
        from value: Int, clock: C, continuation: AsyncStream<Request>.Continuation
    ) -> Task<Void, any Error> {
        let opened = clock.now
        return Task {
            for elapsed in stride(from: 1, through: value, by: 1) {
                try await clock.sleep(until: opened.advanced(by: .seconds(elapsed)), tolerance: nil)
                continuation.yield(.event(.popupTick(value - elapsed)))
            }
            continuation.yield(.event(.popupClosed))
        }
    }

    /// What the showcase's loop handles.
    private enum Request: Sendable {
        /// Open the popup now.
        case openPopup
        /// Apply this event.
        case event(ShowcaseEvent)
    }
}
