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
            stores.boost.startCountDown(duration: seconds)
            console.print("Boost started: \(stores.boost.remainingSeconds.formatted(.countdown)) left\(replaced ? " (replaced the running boost)" : "").")
            return .success
        case .boostStatus:
            let stores = context.stores()
            console.print(status(stores, boost: context.shown(BoostTimeManagerKey.self, else: stores.boost)))
            return .success
        case .boostUse(let seconds):
            let stores = context.stores()
            do {
                try stores.purchases.useBoostItem(duration: seconds)
            } catch {
                return context.fail(error.description)
            }
            console.print("Used a boost item: \(stores.boost.remainingSeconds.formatted(.countdown)) left. \(items(stores.purchases.ownedBoostItems)) left.")
            return .success
        case .boostStop:
            let stores = context.stores()
            let wasRunning = stores.boost.isInBoostTime
            stores.boost.stopCountDown()
            console.print(wasRunning ? "Boost stopped." : "No boost was running.")
            return .success
        case .boostWatch(let speed):
            return await watch(context.stores(speed: speed), console: console)
        default:
            return .usage
        }
    }

    /// `Boost: 14:59 left.` or `No boost is running.`, and the items owned.
    ///
    /// - Parameter boost: The boost to show: the data folder's, or a launch variant.
    static func status(_ stores: DemoStores, boost: any BoostTimeManagerContract) -> String {
        let paused = (boost as? BoostTimeManager)?.isPaused == true
        let shown = boost.isInBoostTime
            ? "Boost: \(boost.remainingSeconds.formatted(.countdown)) left\(paused ? " (paused)" : "")."
            : "No boost is running."
        return "\(shown) \(items(stores.purchases.ownedBoostItems)) owned."
    }

    static func items(_ count: Int) -> String {
        count == 1 ? "1 boost item" : "\(count) boost items"
    }

    /// Shows the persisted boost until it ends: redrawn in place on a terminal, one line per
    /// second otherwise.
    private static func watch(_ stores: DemoStores, console: Console) async -> ExitStatus {
        let (events, continuation) = AsyncStream.makeStream(of: Int?.self)
        let ticks = NotificationChannel.boostTime.observe(center: stores.center) { continuation.yield($0) }
        let ends = NotificationChannel.boostEnded.observe(center: stores.center) { _ in continuation.yield(nil) }
        defer {
            ticks.cancel()
            ends.cancel()
        }
        guard stores.boost.isInBoostTime else {
            console.print("No boost is running.")
            return .success
        }
        let trap = InterruptTrap.install {
            console.writeLast(console.isTerminal ? Terminal.showCursor + "\n" : "")
        }
        defer { trap.cancel() }
        if console.isTerminal { console.write(Terminal.hideCursor) }
        var drawn = false
        var last = ""
        func draw(_ text: String) {
            guard text != last else { return }
            last = text
            if console.isTerminal {
                console.write(Terminal.redraw([text], previousLineCount: drawn ? 1 : 0))
            } else {
                console.print(text)
            }
            drawn = true
        }
        draw("Boost: \(stores.boost.remainingSeconds.formatted(.countdown))")
        for await seconds in events {
            guard let seconds else { break }
            draw("Boost: \(seconds.formatted(.countdown))")
        }
        draw("Boost: over.")
        if console.isTerminal { console.write(Terminal.showCursor) }
        return .success
    }
}
