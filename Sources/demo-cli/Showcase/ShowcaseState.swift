import Foundation
import Stores

/// What one of the two screens shows.
enum PanelValue: Sendable, Equatable {
    /// The screen is not open yet.
    case notOpen
    /// The screen shows this many seconds.
    case showing(Int)
    /// The screen was closed (the popup, at 00:00).
    case closed

    /// The seconds shown, if the screen shows any.
    var seconds: Int? {
        if case .showing(let seconds) = self { return seconds }
        return nil
    }
}

/// Which version of the screens the showcase runs.
enum ShowcaseMode: Sendable, Equatable {
    /// One `BoostTimeManager`; both screens redraw from its notifications.
    case shared
    /// The "before": each screen counts down with its own timer.
    case naive
}

/// The stored profile and purchases, as the showcase's header shows them.
struct ShowcaseHeader: Sendable, Equatable {
    /// The nickname; empty when not set.
    var nickname = ""
    /// The profile's gender, if set.
    var gender: Gender?
    /// The boost items owned.
    var boostItems = 0
    /// When premium ends, if it is active.
    var premiumUntil: Date?
    /// The purchase flow's state, e.g. `idle`.
    var purchaseFlow = "idle"
}

/// Something that happened to the screens; ``ShowcaseState/apply(_:)`` is the only way they
/// change.
enum ShowcaseEvent: Sendable, Equatable {
    /// The store posted a new boost time on its notification center: the main screen shows it.
    case storeTick(Int)
    /// Swift Observation reported a new boost time, as it would redraw a SwiftUI view: the
    /// popup shows it, if open.
    case observedTick(Int)
    /// The main screen's own timer fired (naive mode).
    case mainTick(Int)
    /// The popup's own timer fired (naive mode).
    case popupTick(Int)
    /// The popup opened, showing this value.
    case popupOpened(Int)
    /// The popup closed.
    case popupClosed
}

/// Everything the showcase draws: a pure value, changed only by events.
struct ShowcaseState: Sendable, Equatable {
    /// Shared store or per-screen timers.
    var mode: ShowcaseMode
    /// The boost's length in seconds.
    var boostSeconds: Int
    /// The stored profile and purchases.
    var header = ShowcaseHeader()
    /// The main screen's countdown label.
    var main = PanelValue.notOpen
    /// The boost popup's countdown label.
    var popup = PanelValue.notOpen

    /// Applies `event` to the screens.
    mutating func apply(_ event: ShowcaseEvent) {
        switch event {
        case .storeTick(let seconds):
            main = .showing(seconds)
        case .observedTick(let seconds):
            if popup.seconds != nil { popup = .showing(seconds) }
        case .mainTick(let seconds):
            main = .showing(seconds)
        case .popupTick(let seconds):
            if popup.seconds != nil { popup = .showing(seconds) }
        case .popupOpened(let seconds):
            popup = .showing(seconds)
        case .popupClosed:
            popup = .closed
        }
    }

    /// Whether both screens show a time and the times differ: the bug on screen.
    var screensDisagree: Bool {
        guard let main = main.seconds, let popup = popup.seconds else { return false }
        return main != popup
    }

    /// Whether the showcase is over: the main screen at 00:00 and the popup closed.
    var isFinished: Bool {
        main == .showing(0) && popup == .closed
    }
}
