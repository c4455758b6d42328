// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of demo-cli (Sources/demo-cli), verbatim between the markers, so that
// they always compile; QuickStartTests/DocCommentSnippetTests checks that they match. They run
// in-process, on captured output, temporary folders, in-memory storage and manual clocks, with
// expectations after each example; the names an example takes for granted are declared before it.
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif
import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Stores
import Testing
import Timers
@testable import demo_cli

/// The profile view of `profile show --watch`, as the `Following` example writes it.
private func followProfile(stores: DemoStores, console: Console) async -> demo_cli.ExitStatus {
// Doc "demo-cli/Commands/Following.swift" snippet 1: begin
let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
let token = stores.profile.observe { _ in continuation.yield() }
defer { token.cancel() }
return await Following.run(console: console, events: changes) { _ in
    ProfileCommand.lines(stores.profile.profile)
}
// Doc "demo-cli/Commands/Following.swift" snippet 1: end
}

/// SIGINT's disposition in this process, as bits: 0 for the default action (ending the
/// process); while a trap is installed, the handler of its dispatch source.
private func interruptHandlerBits() -> Int {
    var action = sigaction()
    sigaction(SIGINT, nil, &action)
    #if canImport(Darwin)
    return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
    #else
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    #endif
}

@Suite(.hangLimit) struct DemoCLIDocCommentTests {
    // MARK: - App

    @Test func lazyStore() {
        let storage = InMemoryStorage()
        let seed = UserProfileStore(storage: storage)
        #expect(throws: Never.self) { try seed.setNickname("Aki") }
// Doc "demo-cli/App/LazyStore.swift" snippet 1: begin
let profile = LazyStore { UserProfileStore(storage: storage) }
let nickname = profile.value.profile.nickname   // the profile is loaded here, once
// Doc "demo-cli/App/LazyStore.swift" snippet 1: end
        #expect(nickname == "Aki")
        #expect(profile.value === profile.value)
    }

    @Test func dataFolderPath() throws {
// Doc "demo-cli/App/DataFolderPath.swift" snippet 1: begin
let folder = try DataFolderPath.resolve(option: "~/demo", environment: ["HOME": "/home/aki"])
// "/home/aki/demo"
// Doc "demo-cli/App/DataFolderPath.swift" snippet 1: end
        #expect(folder == "/home/aki/demo")
    }

    @Test func demoStores() throws {
        try withTemporaryFolder { folder in
            let output = CapturedOutput()
            let console = output.console(isTerminal: false)
            let dataFolder = folder.path(percentEncoded: false)
// Doc "demo-cli/App/DemoStores.swift" snippet 1: begin
let stores = DemoStores(dataDirectory: dataFolder, clock: ContinuousClock(), console: console)
let nickname = stores.profile.profile.nickname   // builds the profile store alone
// Doc "demo-cli/App/DemoStores.swift" snippet 1: end
            #expect(nickname == "")
            #expect(stores.builtStores == ["profile"])
            #expect(output.standardError == "")
        }
    }

    // MARK: - CLI

    @Test func commandLineParser() throws {
// Doc "demo-cli/CLI/CommandLineParser.swift" snippet 1: begin
let invocation = try CommandLineParser.parse(["boost", "use", "--seconds", "60"])
// Invocation(command: .boostUse(seconds: 60), dataDirectory: nil)
// Doc "demo-cli/CLI/CommandLineParser.swift" snippet 1: end
        #expect(invocation == Invocation(command: .boostUse(seconds: 60), dataDirectory: nil))
    }

    // MARK: - Commands

    @Test func boostWatchLine() {
// Doc "demo-cli/Commands/BoostCommand.swift" snippet 1: begin
var line = BoostWatchLine()
let first = line.next(after: nil, remainingSeconds: 0, isPaused: false)            // "No boost is running."
let ticking = line.next(after: .tick(120), remainingSeconds: 120, isPaused: false) // "Boost: 02:00"
let ended = line.next(after: .ended, remainingSeconds: 0, isPaused: false)         // "Boost: over."
// Doc "demo-cli/Commands/BoostCommand.swift" snippet 1: end
        #expect(first == "No boost is running.")
        #expect(ticking == "Boost: 02:00")
        #expect(ended == "Boost: over.")
    }

    // MARK: - Showcase

    @Test func showcase() async throws {
        let clock = ManualClock()
        let center = NotificationCenter()
        let state = ShowcaseState(mode: .shared, boostSeconds: 10)
        let output = CapturedOutput()
        let console = output.console(isTerminal: false)
        let run = Task {
// Doc "demo-cli/Showcase/Showcase.swift" snippet 1: begin
var sink = ConsoleShowcaseSink(console: console)
let boost = BoostTimeManager(clock: clock, storage: InMemoryStorage(), center: center)
await Showcase.runShared(seconds: 10, clock: clock, boost: boost, center: center,
                         initial: state, sink: &sink)
// Doc "demo-cli/Showcase/Showcase.swift" snippet 1: end
        }
        try await clock.expectSleepers(2)  // the countdown and the popup's opening
        // The showcase draws a frame only while it shows the current second, so the clock moves
        // on once this second's frame is out: on a loaded machine the screens' task may run late.
        let start = clock.now
        await clock.advance(to: start.advanced(by: Showcase.popupDelay))
        #expect(await waitUntil { output.standardOutput.contains("Main screen 00:10 | Boost popup 00:10") })
        for second in 1...10 {
            await clock.advance(to: start.advanced(by: .seconds(second)))
            let shown = String(format: "%02d", 10 - second)
            if second < 10 {
                #expect(await waitUntil { output.standardOutput.contains("Main screen 00:\(shown) | Boost popup 00:\(shown)") })
            }
        }
        await run.value
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.contains("Main screen 00:10 | Boost popup 00:10"))
        #expect(lines.contains("Main screen 00:05 | Boost popup 00:05"))
        #expect(lines.last == "Main screen 00:00 | Boost popup closed")
    }

    @Test func showcaseRenderer() {
// Doc "demo-cli/Showcase/ShowcaseRenderer.swift" snippet 1: begin
var state = ShowcaseState(mode: .shared, boostSeconds: 10)
state.apply(.storeTick(9))
let line = ShowcaseRenderer.line(state)   // "Main screen 00:09 | Boost popup --:--"
// Doc "demo-cli/Showcase/ShowcaseRenderer.swift" snippet 1: end
        #expect(line == "Main screen 00:09 | Boost popup --:--")
    }

    // MARK: - Terminal

    @Test func liveBlock() {
        let output = CapturedOutput()
        let console = output.console(isTerminal: false)
// Doc "demo-cli/Terminal/LiveBlock.swift" snippet 1: begin
var block = LiveBlock(console: console, footer: ["Ctrl-C to stop."])
block.begin()
block.show(["nickname: Aki", "gender: none"])   // both lines
block.show(["nickname: Mika", "gender: none"])  // piped: "nickname: Mika" only
block.show(["nickname: Mika", "gender: none"])  // nothing: no change
block.end()
// Doc "demo-cli/Terminal/LiveBlock.swift" snippet 1: end
        #expect(output.standardOutput == "nickname: Aki\ngender: none\nnickname: Mika\n")
    }

    // MARK: - Timing

    @Test func scaledClock() async throws {
        let start = ContinuousClock.now
// Doc "demo-cli/Timing/ScaledClock.swift" snippet 1: begin
let clock = ScaledClock(speed: 20)        // over ContinuousClock
try await clock.sleep(for: .seconds(1))   // 50 ms of real time
// Doc "demo-cli/Timing/ScaledClock.swift" snippet 1: end
        // At least the scaled share of real time; no upper bound, which a loaded machine may pass.
        #expect(start.duration(to: .now) >= .milliseconds(50))
        #expect(clock.speed == 20)
    }
}

/// The examples that trap Ctrl-C change this process's SIGINT handling while they run: one at
/// a time.
@Suite(.serialized, .hangLimit) struct DemoCLIInterruptDocCommentTests {
    @Test func interruptTrap() {
        let output = CapturedOutput()
        let console = output.console(isTerminal: true)
        do {
// Doc "demo-cli/Terminal/Terminal.swift" snippet 1: begin
let trap = InterruptTrap.install { console.writeLast(Terminal.showCursor) }
defer { trap.cancel() }
// Doc "demo-cli/Terminal/Terminal.swift" snippet 1: end
            #expect(interruptHandlerBits() != 0, "Ctrl-C is caught: it no longer ends the process")
        }
        #expect(interruptHandlerBits() == 0, "Ctrl-C ends the process again")
        #expect(output.standardOutput == "", "nothing is restored without a Ctrl-C")
    }

    @Test func following() async throws {
        try await withTemporaryFolder { folder in
            let output = CapturedOutput()
            let console = output.console(isTerminal: false)
            let stores = DemoStores(dataDirectory: folder.path(percentEncoded: false), clock: ContinuousClock(), console: console)
            let run = Task { await followProfile(stores: stores, console: console) }
            #expect(await waitUntil { output.standardOutput.contains("nickname: (not set)\n") })
            try stores.profile.setNickname("Mika")
            #expect(await waitUntil { output.standardOutput.contains("nickname: Mika\n") })
            run.cancel()
            #expect(await run.value == .success)
            #expect(interruptHandlerBits() == 0, "the view gives Ctrl-C back when it ends")
        }
    }
}
