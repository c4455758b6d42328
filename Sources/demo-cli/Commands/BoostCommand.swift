import SingletonStoresLocking
import StoreObservation
import Stores
import Timers

/// `demo-cli boost start|status|use|stop|watch`: the persisted boost.
///
/// The boost's end is stored as a wall-clock date, so `boost status` in a later run shows the
/// time left, and a boost that ended meanwhile shows as none.
enum BoostCommand {
    static func run(_ command: Command, context: CommandContext) async -> ExitStatus {
        let console = context.console
        switch command {
        case .boostStart(let seconds):
            let stores = context.stores()
            let replaced = stores.boost.isInBoostTime
            do {
                try stores.boost.start(duration: seconds)
            } catch {
                // Never "Boost started" for a boost that was not saved.
                return context.fail(error)
            }
            console.print(
                "Boost started: \(stores.boost.remainingSeconds.formatted(.countdown)) left\(replaced ? " (replaced the running boost)" : "")."
            )
            return .success
        case .boostStatus:
            let stores = context.stores()
            console.print(status(stores, boost: context.shown(BoostTimeManagerKey.self, else: stores.boost)))
            return .success
        case .boostUse(let seconds):
            let stores = context.stores()
            do {
                try stores.purchases.useBoostItem(duration: seconds)
            } catch .storage(let problem) where !problem.isNotDurable {
                // Decided before anything was spent: say so, with the file to see to.
                return context.fail("The boost did not start and no item was spent. \(problem)")
            } catch {
                return context.fail(error)
            }
            console.print(
                "Used a boost item: \(stores.boost.remainingSeconds.formatted(.countdown)) left. \(items(stores.purchases.ownedBoostItems)) left."
            )
            return .success
        case .boostStop:
            let stores = context.stores()
            let wasRunning = stores.boost.isInBoostTime
            do {
                try stores.boost.stop()
            } catch {
                return context.fail(error)
            }
            console.print(wasRunning ? "Boost stopped." : "No boost was running.")
            return .success
        case .boostWatch(let speed, let untilEnd):
            return await watch(context.stores(speed: speed), console: console, untilEnd: untilEnd)
        default:
            return .usage
        }
    }

    /// `Boost: 14:59 left.` or `No boost is running.`, and the items owned.
    ///
    /// - Parameter boost: The boost to show: the data folder's, or a launch variant.
    static func status(_ stores: DemoStores, boost: any BoostTimeManagerContract) -> String {
        let paused = (boost as? BoostTimeManager)?.isPaused == true
        let shown =
            boost.isInBoostTime
            ? "Boost: \(boost.remainingSeconds.formatted(.countdown)) left\(paused ? " (paused)" : "")."
            : "No boost is running."
        return "\(shown) \(items(stores.purchases.ownedBoostItems)) owned."
    }

    static func items(_ count: Int) -> String {
        count == 1 ? "1 boost item" : "\(count) boost items"
    }

    /// `boost watch`: follows the persisted boost across runs until Ctrl-C — or, with
    /// `--until-end`, until the boost ends (at once when none runs).
    ///
    /// One line, redrawn in place on a terminal (with a hint under it); on a pipe, one line
    /// per change, never the same line twice in a row:
    ///
    /// ```text
    /// No boost is running.        (only when none runs at the start)
    /// Boost: 01:59                (each second shown; "Boost: 01:59 (paused)" while paused)
    /// Boost: 00:00                (the last second of a boost that ran out)
    /// Boost: over.                (ran out, or stopped here or in another run)
    /// Boost: 02:00                (a boost started later, here or in another run)
    /// ```
    private static func watch(_ stores: DemoStores, console: Console, untilEnd: Bool) async -> ExitStatus {
        let boost = stores.boost
        let (events, continuation) = AsyncStream.makeStream(of: BoostWatchEvent.self)
        // Subscribed before the first draw: a change another run makes after it is never missed.
        let ticks = NotificationChannel.boostTime.observe(center: stores.center) { continuation.yield(.tick($0)) }
        let ends = NotificationChannel.boostEnded.observe(center: stores.center) { _ in continuation.yield(.ended) }
        // A pause or resume (here or in another run) posts no tick; Observation reports it.
        let pauses = ObservationLoop({ boost.isPaused }) { _ in continuation.yield(.pauseChanged) }
        defer {
            ticks.cancel()
            ends.cancel()
            pauses.cancel()
        }
        var line = BoostWatchLine()
        func render(_ event: BoostWatchEvent?) -> [String] {
            [line.next(after: event, remainingSeconds: boost.remainingSeconds, isPaused: boost.isPaused)]
        }
        guard untilEnd else {
            return await Following.run(console: console, events: events, render: render)
        }
        guard boost.isInBoostTime else {
            console.print("No boost is running.")
            return .success
        }
        let trap = InterruptTrap.install {
            console.writeLast(console.isTerminal ? Terminal.showCursor + "\n" : "")
        }
        defer { trap.cancel() }
        var block = LiveBlock(console: console)
        block.begin()
        block.show(render(nil))
        for await event in events {
            // Ended, or nobody sees the view any more (the reader went away, the disk is full).
            if case .ended = event { break }
            if console.outputFailure() != nil { return .success }
            block.show(render(event))
        }
        block.show([BoostWatchLine.over])
        block.end()
        return .success
    }
}

/// What makes `boost watch` redraw.
enum BoostWatchEvent: Sendable, Equatable {
    /// The shown seconds changed (`.boostTimeNotification`), to this value.
    case tick(Int)
    /// A boost ended: ran out or was stopped (`.boostEnded`).
    case ended
    /// The boost was paused or resumed.
    case pauseChanged
}

/// The line `boost watch` shows, from the boost as it is now.
///
/// ```swift
/// var line = BoostWatchLine()
/// let first = line.next(after: nil, remainingSeconds: 0, isPaused: false)            // "No boost is running."
/// let ticking = line.next(after: .tick(120), remainingSeconds: 120, isPaused: false) // "Boost: 02:00"
/// let ended = line.next(after: .ended, remainingSeconds: 0, isPaused: false)         // "Boost: over."
/// ```
///
/// The line is made from what the boost holds when it is drawn, not from the event's value, so
/// a tick that arrives after a stop cannot bring back an old countdown.
struct BoostWatchLine: Sendable {
    /// The line once a boost that was shown has ended.
    static let over = "Boost: over."
    /// The line while no boost has been shown yet.
    static let none = "No boost is running."

    /// Whether a running boost has been shown.
    private(set) var hasShownBoost = false

    /// The line to show now.
    ///
    /// - Parameters:
    ///   - event: What caused the redraw; `nil` for the first draw.
    ///   - remainingSeconds: The boost's ``Stores/BoostTimeManager/remainingSeconds`` now.
    ///   - isPaused: Whether the boost is paused now.
    mutating func next(after event: BoostWatchEvent?, remainingSeconds: Int, isPaused: Bool) -> String {
        if remainingSeconds > 0 {
            hasShownBoost = true
            return "Boost: \(remainingSeconds.formatted(.countdown))\(isPaused ? " (paused)" : "")"
        }
        guard hasShownBoost else { return Self.none }
        // The last second of a boost that ran out is shown before its end, as a screen shows it.
        if event == .tick(0) { return "Boost: \(0.formatted(.countdown))" }
        return Self.over
    }
}
