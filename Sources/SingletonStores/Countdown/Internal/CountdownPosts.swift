import Foundation
import StoreObservation
import Timers

/// The channels a countdown posts on, as a screen follows them: the seconds to show at each tick,
/// start and extension (``ticks``), `0` at a stop (``ends``), and the seconds frozen or running
/// again at a pause or resume (``pauses``). Shared by ``CountdownStore`` and
/// ``SharedCountdownStore``.
struct CountdownPosts {
    let ticks: NotificationChannel<Int>
    let ends: NotificationChannel<CountdownEnd>
    let pauses: NotificationChannel<Bool>
    let center: NotificationCenter

    /// Calls `handler` with the seconds a screen shows at every change it should show, until the
    /// token is cancelled; a pause or resume reads the seconds from `timer`.
    func observeShown(
        on delivery: ObservationDelivery, timer: CountdownTimer, _ handler: @escaping @Sendable (Int) -> Void
    ) -> ObservationToken {
        let shown = ticks.observe(center: center, on: delivery, handler)
        // A stop posts no tick: its 0 comes with the end (a countdown that ran out ticked 0).
        let stopped = ends.observe(center: center, on: delivery) { end in if end == .stopped { handler(0) } }
        // A pause or a resume changes no second: the seconds shown then come with it.
        let paused = pauses.observe(center: center, on: delivery) { _ in handler(timer.shownSeconds) }
        return ObservationToken {
            shown.cancel()
            stopped.cancel()
            paused.cancel()
        }
    }
}
