import Testing
@testable import demo_cli

/// The live views' drawing, in-process: redrawn in place on a terminal, each changed line once
/// on a pipe.
@Suite("LiveBlock")
struct LiveBlockTests {
    @Test func pipedPrintsTheFirstBlockWholeThenOnlyTheLinesThatChanged() {
        let output = CapturedOutput()
        var block = LiveBlock(console: output.console(isTerminal: false), footer: ["Ctrl-C to stop."])
        block.begin()
        block.show(["nickname: Aki", "gender: none"])
        block.show(["nickname: Aki", "gender: none"])
        block.show(["nickname: Mika", "gender: none"])
        block.show(["nickname: Aki", "gender: female"])
        block.end()
        #expect(
            output.standardOutput == """
                nickname: Aki
                gender: none
                nickname: Mika
                nickname: Aki
                gender: female

                """)
    }

    @Test func aTerminalRedrawsTheBlockAndItsFooterInPlace() {
        let output = CapturedOutput()
        var block = LiveBlock(console: output.console(isTerminal: true), footer: ["hint"])
        block.begin()
        block.show(["Boost: 00:02"])
        block.show(["Boost: 00:02"])
        block.show(["Boost: over."])
        block.end()
        let erase = Terminal.eraseLine
        #expect(
            output.standardOutput == Terminal.hideCursor
                + "\(erase)Boost: 00:02\n\(erase)hint\n"
                + Terminal.cursorUp(2) + "\(erase)Boost: over.\n\(erase)hint\n"
                + Terminal.showCursor)
    }

    @Test func aShorterFrameBlanksTheLinesLeftBelowIt() {
        let output = CapturedOutput()
        var block = LiveBlock(console: output.console(isTerminal: true))
        block.show(["a", "b"])
        block.show(["c"])
        let erase = Terminal.eraseLine
        #expect(output.standardOutput == "\(erase)a\n\(erase)b\n" + Terminal.cursorUp(2) + "\(erase)c\n\(erase)\n")
    }
}
