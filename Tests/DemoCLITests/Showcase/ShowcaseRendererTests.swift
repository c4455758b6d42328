import Foundation
import Testing
import Stores
@testable import demo_cli

@Suite("ShowcaseRenderer")
struct ShowcaseRendererTests {
    static func state(main: PanelValue, popup: PanelValue, mode: ShowcaseMode = .shared) -> ShowcaseState {
        var state = ShowcaseState(mode: mode, boostSeconds: 10)
        state.main = main
        state.popup = popup
        state.header = ShowcaseHeader(
            nickname: "Aki", gender: .female, boostItems: 2,
            premiumUntil: Date(timeIntervalSince1970: 1_800_000_000), purchaseFlow: "idle")
        return state
    }

    @Test(arguments: [
        (PanelValue.showing(9), PanelValue.notOpen, "Main screen 00:09 | Boost popup --:--"),
        (.showing(754), .showing(754), "Main screen 12:34 | Boost popup 12:34"),
        (.showing(754), .showing(755), "Main screen 12:34 | Boost popup 12:35"),
        (.showing(0), .closed, "Main screen 00:00 | Boost popup closed"),
        (.notOpen, .notOpen, "Main screen --:-- | Boost popup --:--"),
        (.showing(3_725), .showing(3_725), "Main screen 1:02:05 | Boost popup 1:02:05"),
    ])
    func plainLine(_ main: PanelValue, _ popup: PanelValue, _ expected: String) {
        #expect(ShowcaseRenderer.line(Self.state(main: main, popup: popup)) == expected)
    }

    @Test func plainHeaderShowsProfileAndPurchases() {
        let header = ShowcaseRenderer.header(Self.state(main: .notOpen, popup: .notOpen))
        #expect(header.count == 4)
        #expect(header[0].contains("one shared BoostTimeManager"))
        #expect(header[1] == "A demo boost kept in memory: the saved boost ('boost status') is left alone.")
        #expect(header[2] == "Profile: Aki, gender: female (gender_code=2)")
        #expect(header[3] == "Purchases: 2 boost items, premium until 2027-01-15, flow idle")
        let naive = ShowcaseRenderer.header(Self.state(main: .notOpen, popup: .notOpen, mode: .naive))
        #expect(naive[0].contains("own timer"))
    }

    @Test func framesFitAnEightyColumnTerminal() {
        var state = Self.state(main: .showing(86_400), popup: .showing(86_400), mode: .naive)
        state.boostSeconds = 86_400
        state.header.nickname = String(repeating: "N", count: 200)
        state.header.boostItems = 1_000_000
        for line in ShowcaseRenderer.frame(state, color: false) {
            #expect(line.count <= 80, "too wide: \(line)")
        }
        #expect(ShowcaseRenderer.frame(state, color: false)[2].contains("NNN…"))
    }

    @Test func plainOutputHasNoEscapeCodes() {
        let state = Self.state(main: .showing(9), popup: .showing(10))
        let text = (ShowcaseRenderer.header(state) + [ShowcaseRenderer.line(state)]).joined()
        #expect(!text.contains("\u{1B}"))
        #expect(!ShowcaseRenderer.frame(state, color: false).joined().contains("\u{1B}"))
    }

    @Test func terminalFrameShowsBothScreensAndWhetherTheyAgree() {
        let same = ShowcaseRenderer.frame(Self.state(main: .showing(754), popup: .showing(754)), color: false)
        #expect(same.contains { $0.contains("Main screen") && $0.contains("Boost popup") })
        #expect(same.contains { $0.components(separatedBy: "12:34").count == 3 })
        #expect(same.last == "✓ Both screens show the same time.")

        let differ = ShowcaseRenderer.frame(Self.state(main: .showing(754), popup: .showing(755)), color: false)
        #expect(differ.last == "✗ The screens disagree: 12:34 vs 12:35.")

        let closed = ShowcaseRenderer.frame(Self.state(main: .showing(0), popup: .closed), color: false)
        #expect(closed.last == "The boost is over: the popup closed at 00:00.")
    }

    @Test func framesKeepTheirShapeSoTheyRedrawInPlace() {
        let values: [(PanelValue, PanelValue)] = [
            (.notOpen, .notOpen), (.showing(9), .notOpen), (.showing(9), .showing(10)), (.showing(0), .closed),
        ]
        let frames = values.map { ShowcaseRenderer.frame(Self.state(main: $0.0, popup: $0.1), color: false) }
        #expect(Set(frames.map(\.count)).count == 1)
        // The boxes keep their width whatever they show.
        #expect(Set(frames.map { $0[6].count }).count == 1)
    }

    @Test func colorIsOnlyUsedWhenAllowed() {
        let state = Self.state(main: .showing(9), popup: .showing(9))
        let colored = ShowcaseRenderer.frame(state, color: true).joined(separator: "\n")
        #expect(colored.contains("\u{1B}[32m"))
        let plain = ShowcaseRenderer.frame(state, color: false)
        let stripped = ShowcaseRenderer.frame(state, color: true).map(Self.strippingEscapes)
        #expect(stripped == plain)
    }

    static func strippingEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
