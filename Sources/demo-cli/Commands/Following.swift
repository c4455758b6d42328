/// The loop of the live views that run until Ctrl-C: `boost watch`, `profile show --watch`,
/// `purchase show --watch`.
///
/// ```swift
/// let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
/// let token = stores.profile.observe { _ in continuation.yield() }
/// defer { token.cancel() }
/// return await Following.run(console: console, events: changes) { _ in
///     ProfileCommand.lines(stores.profile.profile)
/// }
/// ```
///
/// The stores follow their documents on their own (another run's write is posted here on the
/// storage's watcher thread); the caller turns those posts into `events`. Each event redraws the
/// view from what the stores hold *now*, so a late event never shows an old value, and events
/// that come faster than they are drawn are shown together.
///
/// Ctrl-C ends the view — and the process — with status 0, the cursor given back on a terminal:
/// for a view that runs until Ctrl-C, Ctrl-C is the ordinary way out.
enum Following {
    /// The line a terminal shows under a live view.
    static let footer = "Following changes from other runs. Ctrl-C to stop."

    /// Shows `render(nil)` at once, then `render(event)` after each event, through a
    /// ``LiveBlock``, until Ctrl-C (which exits the process with status 0) or until `events`
    /// finishes (then it returns ``ExitStatus/success``).
    ///
    /// - Parameters:
    ///   - console: Where the view is drawn.
    ///   - events: What tells the view to redraw; subscribe before calling, so that nothing
    ///     written after the first draw is missed.
    ///   - render: The view's lines for the current state; the event that caused the redraw,
    ///     or `nil` for the first draw. Lines must be escaped already.
    static func run<Event: Sendable>(
        console: Console, events: AsyncStream<Event>, render: (Event?) -> [String]
    ) async -> ExitStatus {
        // Armed before the first line is drawn: once anything is on screen, Ctrl-C is caught.
        let trap = InterruptTrap.install(exitingWith: .success) {
            console.writeLast(console.isTerminal ? Terminal.showCursor + "\n" : "")
        }
        defer { trap.cancel() }
        var block = LiveBlock(console: console, footer: [footer])
        block.begin()
        block.show(render(nil))
        for await event in events {
            // Nobody sees the view any more (the reader went away, the disk is full): stop.
            if console.outputFailure() != nil { break }
            block.show(render(event))
        }
        block.end()
        return .success
    }
}
