/// Receives every state the showcase wants drawn, in order, on the showcase's task.
protocol ShowcaseSink {
    /// Draws `state`.
    mutating func draw(_ state: ShowcaseState)
    /// The showcase is over; `state` is its last state.
    mutating func finish(_ state: ShowcaseState)
    /// Whether drawing is still seen: `false` once the output failed (its reader went away),
    /// and the showcase stops.
    var isOpen: Bool { get }
}

extension ShowcaseSink {
    /// Open: a sink that cannot fail.
    var isOpen: Bool { true }
}

/// Draws the showcase on the console.
///
/// On a terminal: the whole frame, redrawn in place with the cursor hidden. Otherwise: the
/// header once, then one plain line per change of the screens, no escape codes.
struct ConsoleShowcaseSink: ShowcaseSink {
    let console: Console
    private var drawnLineCount = 0
    private var lastLine: String?

    init(console: Console) {
        self.console = console
    }

    mutating func draw(_ state: ShowcaseState) {
        if console.isTerminal {
            let lines = ShowcaseRenderer.frame(state, color: console.usesColor)
            let prefix = drawnLineCount == 0 ? Terminal.hideCursor : ""
            console.write(prefix + Terminal.redraw(lines, previousLineCount: drawnLineCount, width: console.width))
            drawnLineCount = lines.count
            return
        }
        if lastLine == nil {
            for line in ShowcaseRenderer.header(state) { console.print(line) }
        }
        let line = ShowcaseRenderer.line(state)
        guard line != lastLine else { return }
        console.print(line)
        lastLine = line
    }

    mutating func finish(_ state: ShowcaseState) {
        draw(state)
        if console.isTerminal { console.write(Terminal.showCursor) }
    }

    /// Whether standard output still takes what is drawn.
    var isOpen: Bool { console.outputFailure() == nil }
}
