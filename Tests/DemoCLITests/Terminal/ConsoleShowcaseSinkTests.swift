import Testing
@testable import demo_cli

@Suite("ConsoleShowcaseSink and Terminal")
struct ConsoleShowcaseSinkTests {
    static func states() -> [ShowcaseState] {
        var state = ShowcaseState(mode: .shared, boostSeconds: 2)
        var states: [ShowcaseState] = []
        // As the shared showcase draws: Observation's report, then the post of the same tick.
        let events: [[ShowcaseEvent]] = [
            [.storeTick(2)], [.storeTick(2)], [.popupOpened(2)], [.observedTick(1), .storeTick(1)],
            [.observedTick(0), .storeTick(0)], [.popupClosed],
        ]
        for frame in events {
            for event in frame { state.apply(event) }
            states.append(state)
        }
        return states
    }

    static func draw(_ states: [ShowcaseState], on console: Console) {
        var sink = ConsoleShowcaseSink(console: console)
        for state in states.dropLast() { sink.draw(state) }
        if let last = states.last { sink.finish(last) }
    }

    @Test func pipedOutputIsTheHeaderThenOnePlainLinePerChange() {
        let output = CapturedOutput()
        Self.draw(Self.states(), on: output.console(isTerminal: false))
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.dropFirst(4)) == [
                "Main screen 00:02 | Boost popup --:--",
                "Main screen 00:02 | Boost popup 00:02",
                "Main screen 00:01 | Boost popup 00:01",
                "Main screen 00:00 | Boost popup 00:00",
                "Main screen 00:00 | Boost popup closed",
            ])
        #expect(!output.standardOutput.contains("\u{1B}"))
    }

    @Test func terminalOutputRedrawsInPlaceWithTheCursorHiddenUntilTheEnd() {
        let output = CapturedOutput()
        Self.draw(Self.states(), on: output.console(isTerminal: true, usesColor: false))
        let text = output.standardOutput
        #expect(text.hasPrefix(Terminal.hideCursor))
        #expect(text.hasSuffix(Terminal.showCursor))
        let frameHeight = ShowcaseRenderer.frame(Self.states()[0], color: false).count
        #expect(text.components(separatedBy: Terminal.cursorUp(frameHeight)).count == Self.states().count)
        #expect(!text.contains("\u{1B}[3"))  // no colour with NO_COLOR
    }

    @Test func redrawMovesUpOverThePreviousLinesAndErasesEachOne() {
        #expect(Terminal.redraw(["a", "b"], previousLineCount: 0) == "\u{1B}[2Ka\n\u{1B}[2Kb\n")
        #expect(Terminal.redraw(["c"], previousLineCount: 2) == "\u{1B}[2F\u{1B}[2Kc\n")
    }
}
