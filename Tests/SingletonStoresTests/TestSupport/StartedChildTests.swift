import Foundation
import SingletonStoresTestSupport
import Testing

/// The test support's child processes: every wait has an end, and a child a test gave up on is
/// killed, never left running or awaited forever.
@Suite(.ownThread, .hangLimit)
struct StartedChildTests {
    private static func start(_ script: String) throws -> StartedChild {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", script]
        return try StartedChild.start(process)
    }

    /// Whether the process `pid` is gone (reaped) or a zombie.
    private static func hasEnded(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return status.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test func finishGivesUpOnAChildThatNeverExitsAndKillsIt() throws {
        let child = try Self.start("echo started; exec sleep 600")
        try child.waitForOutput()
        let started = ContinuousClock.now
        let error = #expect(throws: ChildProcessTimeout.self) { try child.finish(within: .milliseconds(300)) }
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(error?.standardOutput == "started\n")
        #expect(Self.hasEnded(child.processIdentifier), "the child was killed")
    }

    @Test func aLineThatNeverComesFailsTheWaitAndKillsTheChild() throws {
        let child = try Self.start("echo other; exec sleep 600")
        let error = #expect(throws: ChildProcessTimeout.self) {
            try child.waitForLine(within: .milliseconds(300)) { $0 == "wanted" }
        }
        #expect(error?.standardOutput == "other\n")
        #expect(Self.hasEnded(child.processIdentifier), "the child was killed")
    }

    @Test func aChildThatEndsWithoutTheLineFailsTheWaitAtOnce() throws {
        let child = try Self.start("echo other")
        let started = ContinuousClock.now
        #expect(throws: ChildProcessTimeout.self) { try child.waitForLine { $0 == "wanted" } }
        #expect(ContinuousClock.now - started < StartedChild.deadline)
    }

    @Test func finishReturnsWhatAChildPrintedAndHowItEnded() throws {
        let child = try Self.start("echo out; echo err >&2; exit 3")
        let line = try child.waitForLine { $0 == "out" }
        #expect(line == "out")
        let result = try child.finish()
        #expect(result.status == 3 && result.reason == .exit)
        #expect(result.lines == ["out"] && result.errorLines == ["err"])
    }
}
