import Stores

/// `demo-cli` with no command: the showcase.
enum ShowcaseCommand {
    static func run(_ options: ShowcaseOptions, context: CommandContext) async -> ExitStatus {
        let console = context.console
        let clock = ScaledClock(speed: options.speed)
        // The profile and purchases come from the data folder; the showcase's own boost lives in
        // memory, so it never disturbs a boost started with `boost start`.
        let stores = DemoStores(
            dataDirectory: context.dataDirectory, clock: clock, console: console, boostStorage: InMemoryStorage())
        let state = ShowcaseState(
            mode: options.naive ? .naive : .shared, boostSeconds: options.seconds, header: stores.showcaseHeader)
        let trap = InterruptTrap.install {
            console.writeLast(console.isTerminal ? Terminal.showCursor + "\n" : "")
        }
        defer { trap.cancel() }
        var sink = ConsoleShowcaseSink(console: console)
        if options.naive {
            await Showcase.runNaive(seconds: options.seconds, clock: clock, initial: state, sink: &sink)
        } else {
            await Showcase.runShared(
                seconds: options.seconds, clock: clock, boost: stores.boost, center: stores.center,
                initial: state, sink: &sink)
        }
        return .success
    }
}
