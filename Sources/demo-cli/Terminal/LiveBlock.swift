/// A block of lines that follows a changing value, for the live views (`boost watch`,
/// `profile show --watch`, `purchase show --watch`).
///
/// - On a terminal the block is redrawn in place, with `footer` under it, the cursor hidden
///   between ``begin()`` and ``end()``.
/// - On a pipe the first block is printed whole; after that only the lines that differ from
///   the block shown before are printed, each on its own line, so every printed line is a
///   change and nothing is printed twice in a row. The footer is never printed.
///
/// ```swift
/// var block = LiveBlock(console: console, footer: ["Ctrl-C to stop."])
/// block.begin()
/// block.show(["nickname: Aki", "gender: none"])   // both lines
/// block.show(["nickname: Mika", "gender: none"])  // piped: "nickname: Mika" only
/// block.show(["nickname: Mika", "gender: none"])  // nothing: no change
/// block.end()
/// ```
///
/// The lines must already be safe to print: text from storage escaped
/// (`escapingControlCharacters`), one line each.
struct LiveBlock {
    /// Where the block is drawn.
    let console: Console
    /// Lines shown under the block on a terminal only (a hint such as "Ctrl-C to stop.").
    let footer: [String]
    /// The lines last shown; `nil` before the first ``show(_:)``.
    private(set) var shown: [String]?
    /// How many lines the terminal holds from the last draw (block and footer).
    private var drawnLineCount = 0

    /// A block that has shown nothing yet.
    init(console: Console, footer: [String] = []) {
        self.console = console
        self.footer = footer
    }

    /// Hides the cursor on a terminal; call before the first ``show(_:)``.
    func begin() {
        if console.isTerminal { console.write(Terminal.hideCursor) }
    }

    /// Shows `lines` if they differ from the lines shown last.
    mutating func show(_ lines: [String]) {
        guard lines != shown else { return }
        if console.isTerminal {
            var frame = lines + footer
            // A shorter frame blanks the lines the longer one left below it.
            while frame.count < drawnLineCount { frame.append("") }
            console.write(Terminal.redraw(frame, previousLineCount: drawnLineCount, width: console.width))
            drawnLineCount = frame.count
        } else if let previous = shown {
            for (index, line) in lines.enumerated() where index >= previous.count || previous[index] != line {
                console.print(line)
            }
        } else {
            for line in lines { console.print(line) }
        }
        shown = lines
    }

    /// Gives the cursor back on a terminal; the block stays on screen.
    func end() {
        if console.isTerminal { console.write(Terminal.showCursor) }
    }
}
