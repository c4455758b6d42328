import Foundation
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

/// Output narrower than a live block: each line is cut to the width, so no line wraps and the
/// next redraw starts where the last one did.
@Suite("Terminal width")
struct TerminalWidthTests {
    @Test func aLineIsCutToTheWidthAndEscapesTakeNoColumn() {
        #expect(Terminal.fit("abcdef", width: 4) == "abcd")
        #expect(Terminal.fit("abc", width: 4) == "abc")
        #expect(Terminal.fit("abc", width: nil) == "abc")
        #expect(Terminal.fit("\u{1B}[1mabcdef\u{1B}[0m", width: 3) == "\u{1B}[1mabc\u{1B}[0m")
        #expect(Terminal.fit("┌─ Main ─┐", width: 4) == "┌─ M")
    }

    @Test func aLiveBlockOnANarrowTerminalCutsItsLines() {
        let output = CapturedOutput()
        var block = LiveBlock(
            console: output.console(isTerminal: true, width: 10), footer: ["Following changes. Ctrl-C to stop."])
        block.begin()
        block.show(["nickname: a long nickname"])
        block.show(["nickname: another long one"])
        block.end()
        let drawn = output.standardOutput.replacingOccurrences(of: Terminal.eraseLine, with: "")
        #expect(drawn.contains("nickname: \n"))
        #expect(drawn.contains("Following \n"))
        #expect(!drawn.contains("long"))
        #expect(drawn.contains(Terminal.cursorUp(2)))
    }

    @Test func theShowcaseFrameIsCutToTheWidth() {
        let output = CapturedOutput()
        var sink = ConsoleShowcaseSink(console: output.console(isTerminal: true, usesColor: true, width: 20))
        var state = ShowcaseState(mode: .shared, boostSeconds: 10)
        state.apply(.storeTick(9))
        sink.draw(state)
        let text = output.standardOutput.replacingOccurrences(of: Terminal.eraseLine, with: "")
        for line in text.split(separator: "\n") {
            let visible = line.replacing(#/\u{1B}\[[0-9;?]*[A-Za-z]/#, with: "")
            #expect(visible.count <= 20, "\(visible)")
        }
    }

    @Test func columnsIsReadWhenNoTerminalSaysAndCheckedForRange() {
        #expect(Terminal.width(fileDescriptor: -1, environment: ["COLUMNS": "50"]) == 50)
        for bad in ["0", "-3", "abc", "99999999999999999999", ""] {
            #expect(Terminal.width(fileDescriptor: -1, environment: ["COLUMNS": bad]) == nil, "\(bad)")
        }
        #expect(Terminal.width(fileDescriptor: -1, environment: [:]) == nil)
    }

    @Test func aDumbTerminalIsNotLive() {
        // Descriptor -1 is no terminal at all; TERM=dumb must not make one live either.
        #expect(!Terminal.isLive(fileDescriptor: -1, environment: ["TERM": "dumb"]))
    }
}
