import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// The live views through the built binary: a watcher runs in one process while other runs
/// change the data folder, as in two terminals. Each test has its own data folder (given to
/// every run through `SINGLETON_STORES_DATA_DIR`); each wait is for a line, with a generous
/// deadline; each watcher is ended with SIGINT and must exit 0.
@Suite("Live views through the binary", .hangLimit, .ownThread)
struct LiveViewBinaryTests {
    /// A countdown line of `boost watch`, such as `Boost: 01:59`.
    static func isCountdown(_ line: String) -> Bool {
        line.hasPrefix("Boost: ") && line.dropFirst("Boost: ".count).allSatisfy { $0.isNumber || $0 == ":" }
    }

    /// No line is printed twice in a row: each piped line is a change.
    static func expectNoRepeatedLines(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for (line, next) in zip(lines, lines.dropFirst()) {
            #expect(line != next, "\(line) printed twice in a row: \(lines)", sourceLocation: sourceLocation)
        }
    }

    @Test func pipedProfileShowWatchPrintsEachNicknameAsItIsSetElsewhere() throws {
        try withDemoBinary { binary in
            let watcher = try RunningDemo.start(binary, ["profile", "show", "--watch"])
            defer { watcher.endIfRunning() }
            try watcher.waitForLine("id: (none)")

            #expect(try binary.runInFolder(["profile", "set", "--nickname", "Aki"]).status == 0)
            let aki = try watcher.waitForLine("nickname: Aki")
            // A nickname with an escape character cannot reach the terminal raw.
            #expect(try binary.runInFolder(["profile", "set", "--nickname", "Mi\u{1B}[2Jka\nrank: gold"]).status == 0)
            try watcher.waitForLine(after: aki + 1, #"nickname: Mi\u{1B}[2Jka\nrank: gold"#)

            let (status, reason) = try watcher.interrupt()
            #expect(reason == .exit && status == 0)
            #expect(
                watcher.lines == [
                    "nickname: (not set)", "gender: none", "rank: regular", "beta: no", "id: (none)",
                    "nickname: Aki",
                    #"nickname: Mi\u{1B}[2Jka\nrank: gold"#,
                ])
            #expect(!watcher.output.text.utf8.contains(0x1B), "no ESC byte is printed")
            #expect(watcher.errors.text.isEmpty)
        }
    }

    @Test func pipedPurchaseShowWatchFollowsABuyInAnotherRun() throws {
        try withDemoBinary { binary in
            let watcher = try RunningDemo.start(binary, ["purchase", "show", "--watch"])
            defer { watcher.endIfRunning() }
            try watcher.waitForLine("ledger entries: 0")

            #expect(try binary.runInFolder(["purchase", "buy", "--items", "2"]).status == 0)
            try watcher.waitForLine("ledger entries: 1")

            let (status, reason) = try watcher.interrupt()
            #expect(reason == .exit && status == 0)
            #expect(
                watcher.lines == [
                    "boost items: 0", "premium: no premium", "flow: idle", "ledger entries: 0",
                    "boost items: 2", "ledger entries: 1",
                ])
            #expect(watcher.errors.text.isEmpty)
        }
    }

    @Test func pipedBoostWatchFollowsAStartAStopAndASecondStart() throws {
        try withDemoBinary { binary in
            let watcher = try RunningDemo.start(binary, ["boost", "watch"])
            defer { watcher.endIfRunning() }
            try watcher.waitForLine("No boost is running.")

            #expect(try binary.runInFolder(["boost", "start", "--seconds", "120"]).status == 0)
            let first = try watcher.waitForLine("a countdown from 02:00") { $0 == "Boost: 02:00" || $0.hasPrefix("Boost: 01:") }
            #expect(try binary.runInFolder(["boost", "stop"]).lines == ["Boost stopped."])
            let over = try watcher.waitForLine(after: first + 1, "Boost: over.")
            #expect(try binary.runInFolder(["boost", "start", "--seconds", "120"]).status == 0)
            try watcher.waitForLine(after: over + 1, "a second countdown") { $0 == "Boost: 02:00" || $0.hasPrefix("Boost: 01:") }

            let (status, reason) = try watcher.interrupt()
            #expect(reason == .exit && status == 0)
            let lines = watcher.lines
            #expect(lines.first == "No boost is running.")
            #expect(lines.filter { $0 == "Boost: over." }.count == 1)
            #expect(lines.allSatisfy { $0 == "No boost is running." || $0 == "Boost: over." || Self.isCountdown($0) }, "\(lines)")
            Self.expectNoRepeatedLines(lines)
            #expect(!watcher.output.text.contains("\u{1B}"))
            #expect(watcher.errors.text.isEmpty)
        }
    }
}

#if os(Linux) && canImport(Glibc)
import Glibc

extension LiveViewBinaryTests {
    /// `boost watch` on a pseudo-terminal, as in a second terminal window: one frame (the line
    /// and the hint under it) redrawn in place as another run stops the boost and starts a new
    /// one; Ctrl-C gives the cursor back and exits 0.
    @Test func boostWatchOnATerminalRedrawsInPlaceAsAnotherRunStopsAndStarts() throws {
        try withDemoBinary { binary in
            #expect(try binary.runInFolder(["boost", "start", "--seconds", "120"]).status == 0)
            let terminal = try TerminalBinaryTests.PseudoTerminal()
            let process = try binary.makeProcess(
                ["boost", "watch"], withDataFolder: false, environment: binary.folderEnvironment)
            process.standardOutput = terminal.follower
            process.standardError = FileHandle.nullDevice
            try process.run()
            try terminal.follower.close()
            let leader = terminal.leader
            // Reads until the child's side closes: `read` fails with EIO once the child exited.
            let screen = GrowingOutput {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
                return count > 0 ? Array(buffer[0..<count]) : []
            }
            defer {
                if process.isRunning { process.terminate() }
                _ = screen.waitUntilClosed(timeout: RunningDemo.deadline)
                close(leader)
            }
            func waitFor(_ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ holds: (String) -> Bool)
                throws
            {
                guard screen.wait(timeout: RunningDemo.deadline, until: holds) else {
                    Issue.record(
                        "the terminal never showed \(description): \(screen.text.debugDescription)",
                        sourceLocation: sourceLocation)
                    throw RunningDemoError.timedOut
                }
            }
            /// Whether the text after the last "Boost: over." shows a countdown.
            func countdownAfterOver(_ text: String) -> Bool {
                text.components(separatedBy: "Boost: over.").last?.contains("Boost: 0") == true
            }

            try waitFor("the running boost") { $0.contains("Boost: 02:00") || $0.contains("Boost: 01:") }
            #expect(try binary.runInFolder(["boost", "stop"]).status == 0)
            try waitFor("the stop") { $0.contains("Boost: over.") }
            #expect(try binary.runInFolder(["boost", "start", "--seconds", "120"]).status == 0)
            try waitFor("the second boost") { $0.contains("Boost: over.") && countdownAfterOver($0) }
            process.interrupt()
            #expect(screen.waitUntilClosed(timeout: RunningDemo.deadline), "the watcher did not exit after SIGINT")
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)

            let text = screen.text
            #expect(text.hasPrefix(Terminal.hideCursor))
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(Terminal.showCursor))
            // Every frame after the first starts by going back up over the two lines drawn.
            let frames = text.dropFirst(Terminal.hideCursor.count).components(separatedBy: Terminal.cursorUp(2))
            #expect(frames.count >= 3, "\(text.debugDescription)")
            for frame in frames {
                #expect(frame.hasPrefix(Terminal.eraseLine), "\(frame.debugDescription)")
                #expect(
                    frame.components(separatedBy: Following.footer).count == 2, "one hint per frame: \(frame.debugDescription)")
                #expect(
                    frame.components(separatedBy: "Boost: ").count == 2, "one boost line per frame: \(frame.debugDescription)")
            }
            #expect(text.contains(Terminal.cursorUp(2) + Terminal.eraseLine + "Boost: over."))
        }
    }
}
#endif
