import Testing
@testable import demo_cli

/// ``DemoCLI/run(arguments:environment:console:)`` in-process: exit statuses and where the text
/// goes, without a data folder (these commands touch no store).
@Suite("DemoCLI.run")
struct DemoCLIRunTests {
    @Test func helpGoesToStandardOutputAndSucceeds() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["boost", "--help"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .success)
        #expect(output.standardOutput == HelpText.page(for: ["boost"]) + "\n")
        #expect(output.standardError.isEmpty)
    }

    @Test func aUsageErrorIsOneLineOnStandardErrorAndStatus64() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["boost", "start", "--seconds", "abc"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .usage)
        #expect(status.rawValue == 64)
        #expect(output.standardOutput.isEmpty)
        #expect(
            output.standardError
                == "demo-cli: --seconds expects a whole number of seconds from 1 to 86400, got 'abc' (try 'demo-cli boost start --help')\n"
        )
    }

    @Test func aReplayedRouteEndsWhereTheFlowSays() async {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["flow", "reset-password"], environment: [:], console: output.console(isTerminal: false))
        #expect(status == .success)
        #expect(output.standardOutput.hasSuffix("Ended at home.\n"))
        #expect(output.standardOutput.contains("resetPassword: emailLogin → resetPassword"))
    }
}
