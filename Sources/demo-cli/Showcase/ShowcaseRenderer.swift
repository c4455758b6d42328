import SingletonStoresLocking
import Foundation
import Stores
import Timers

/// Draws a ``ShowcaseState``: a pure function of the state, so every frame can be tested
/// without a terminal.
///
/// ```swift
/// var state = ShowcaseState(mode: .shared, boostSeconds: 10)
/// state.apply(.storeTick(9))
/// let line = ShowcaseRenderer.line(state)   // "Main screen 00:09 | Boost popup --:--"
/// ```
enum ShowcaseRenderer {
    /// The line printed for every change when standard output is not a terminal.
    static func line(_ state: ShowcaseState) -> String {
        "Main screen \(text(state.main)) | Boost popup \(text(state.popup))"
    }

    /// The lines printed once, before the first ``line(_:)``, when output is not a terminal.
    static func header(_ state: ShowcaseState) -> [String] {
        [title(state.mode, seconds: state.boostSeconds), demoBoostLine, profileLine(state.header), purchasesLine(state.header)]
    }

    /// The whole screen when standard output is a terminal, redrawn in place on every change.
    ///
    /// - Parameter color: Whether to use colour escape codes (off with `NO_COLOR`).
    static func frame(_ state: ShowcaseState, color: Bool) -> [String] {
        let style = Style(enabled: color)
        let width = 17
        let main = text(state.main)
        let popup = text(state.popup)
        return [
            style.bold(title(state.mode, seconds: state.boostSeconds)),
            style.dim(demoBoostLine),
            profileLine(state.header),
            purchasesLine(state.header),
            "",
            "┌" + label("Main screen", width) + "┐   ┌" + label("Boost popup", width) + "┐",
            "│" + style.time(centered(main, width), dim: state.main.seconds == nil)
                + "│   │" + style.time(centered(popup, width), dim: state.popup.seconds == nil) + "│",
            "└" + String(repeating: "─", count: width) + "┘   └" + String(repeating: "─", count: width) + "┘",
            status(state, style: style),
        ]
    }

    /// A screen's label: `mm:ss`, `--:--` before it opens, `closed` after.
    static func text(_ value: PanelValue) -> String {
        switch value {
        case .notOpen: "--:--"
        case .showing(let seconds): seconds.formatted(.countdown)
        case .closed: "closed"
        }
    }

    private static func title(_ mode: ShowcaseMode, seconds: Int) -> String {
        switch mode {
        case .shared: "A \(seconds) s boost, two screens, one shared BoostTimeManager"
        case .naive: "A \(seconds) s boost, two screens, each with its own timer (naive)"
        }
    }

    /// Which boost the screens show: the showcase's own, not the one `boost start` saved.
    static let demoBoostLine = "A demo boost kept in memory: the saved boost ('boost status') is left alone."

    private static func profileLine(_ header: ShowcaseHeader) -> String {
        // Escaped (stored text), then kept short so that the frame's lines never wrap on an
        // 80-column terminal.
        let nickname = header.nickname.escapingControlCharacters
        let name = nickname.isEmpty ? "(no nickname)" : nickname.count > 24 ? nickname.prefix(23) + "…" : nickname
        // Spelled as `profile show` spells it: "none" when no gender is set.
        let gender = header.gender.map { "\($0) (gender_code=\($0.isoCode))" } ?? "none"
        return "Profile: \(name), gender: \(gender)"
    }

    private static func purchasesLine(_ header: ShowcaseHeader) -> String {
        let items = header.boostItems == 1 ? "1 boost item" : "\(header.boostItems) boost items"
        let premium = header.premiumUntil.map { "premium until \($0.formatted(.iso8601.year().month().day()))" } ?? "no premium"
        return "Purchases: \(items), \(premium), flow \(header.purchaseFlow.escapingControlCharacters)"
    }

    private static func status(_ state: ShowcaseState, style: Style) -> String {
        switch (state.main, state.popup) {
        case (_, .closed):
            return "The boost is over: the popup closed at 00:00."
        case (.showing, .notOpen):
            return style.dim("The popup opens 0.4 s after the boost starts…")
        default:
            if state.screensDisagree {
                return style.red("✗ The screens disagree: \(text(state.main)) vs \(text(state.popup)).")
            }
            return style.green("✓ Both screens show the same time.")
        }
    }

    private static func label(_ name: String, _ width: Int) -> String {
        let text = "─ \(name) "
        return text + String(repeating: "─", count: max(0, width - text.count))
    }

    private static func centered(_ text: String, _ width: Int) -> String {
        let left = max(0, (width - text.count) / 2)
        let right = max(0, width - text.count - left)
        return String(repeating: " ", count: left) + text + String(repeating: " ", count: right)
    }
}

/// ANSI colour, or none.
private struct Style {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func time(_ text: String, dim isDim: Bool) -> String { isDim ? dim(text) : bold(text) }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
