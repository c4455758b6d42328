import SingletonStoresTestSupport
import Foundation
import Testing
@testable import demo_cli

/// `demo-cli` with no command, run as a process with its output piped.
@Suite("Showcase through the binary", .hangLimit, .ownThread)
struct ShowcaseBinaryTests {
    /// The panel lines (`Main screen 00:02 | Boost popup 00:02`) as (main, popup) texts.
    static func panels(_ result: DemoBinary.Result) -> [(main: String, popup: String)] {
        result.lines.compactMap { line in
            guard line.hasPrefix("Main screen ") else { return nil }
            let parts = line.dropFirst("Main screen ".count).components(separatedBy: " | Boost popup ")
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
    }

    @Test func sharedShowcaseShowsEqualScreensEverySecondAndEndsAtZero() throws {
        // This runs the real binary on the real clock (sped up), so it checks only what holds
        // however the process is scheduled — under the thread sanitizer on a loaded machine a
        // frame may be skipped. Which frame comes at which instant is `ShowcaseTests`' job, on a
        // manual clock.
        try withDemoBinary { binary in
            let result = try binary.run(["--seconds", "3", "--speed", "10"])
            #expect(result.reason == .exit && result.status == 0)
            #expect(result.standardError.isEmpty)
            #expect(!result.standardOutput.contains("\u{1B}"))
            let panels = Self.panels(result)
            // Every line where both screens show a time shows the same time…
            for panel in panels where panel.popup.contains(":") && panel.popup != "--:--" {
                #expect(panel.main == panel.popup, "the screens disagree: \(panel)")
            }
            // …the main screen counts down second by second to zero, never back up…
            let countdown = ["00:03", "00:02", "00:01", "00:00"]
            let mainSeconds = panels.map(\.main).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(mainSeconds == countdown.filter(mainSeconds.contains), "out of order: \(mainSeconds)")
            #expect(mainSeconds.last == "00:00")
            // …the popup opens and shows the main screen's time…
            #expect(panels.contains { $0.main == $0.popup })
            // …and closes at zero, which ends the run.
            #expect(panels.last.map { "\($0.main)|\($0.popup)" } == "00:00|closed")
            #expect(result.lines.last == "Main screen 00:00 | Boost popup closed")
        }
    }

    @Test func naiveShowcaseShowsTheScreensDisagreeing() throws {
        try withDemoBinary { binary in
            let result = try binary.run(["--naive", "--seconds", "2", "--speed", "5"])
            #expect(result.reason == .exit && result.status == 0)
            let panels = Self.panels(result)
            let disagreements = panels.filter { $0.popup.contains(":") && $0.popup != "--:--" && $0.main != $0.popup }
            #expect(!disagreements.isEmpty)
            #expect(result.lines.last == "Main screen 00:00 | Boost popup closed")
        }
    }

    @Test func showcaseShowsTheStoredProfileAndPurchases() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["profile", "set", "--nickname", "Aki", "--gender", "female"])
            _ = try binary.run(["purchase", "buy", "--items", "2"])
            let result = try binary.run(["--seconds", "1", "--speed", "50"])
            #expect(result.status == 0)
            #expect(result.lines.contains("Profile: Aki, gender: female (gender_code=2)"))
            // The showcase says its boost is not the saved one.
            #expect(result.lines.contains(ShowcaseRenderer.demoBoostLine))
            #expect(result.lines.contains { $0.hasPrefix("Purchases: 2 boost items") })
        }
    }

    @Test func showcaseLeavesAPersistedBoostAlone() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["boost", "start", "--seconds", "600"])
            let showcase = try binary.run(["--seconds", "1", "--speed", "50"])
            #expect(showcase.status == 0)
            let status = try binary.run(["boost", "status"])
            #expect(status.lines.first?.hasPrefix("Boost: 09:") == true || status.lines.first?.hasPrefix("Boost: 10:00") == true)
        }
    }

    @Test func ctrlCExits130() throws {
        try withDemoBinary { binary in
            let process = try binary.makeProcess(["--seconds", "60"])
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the showcase draws (it has set up its Ctrl-C handling by then).
            var seen = ""
            while !seen.contains("Main screen") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
            }
            process.interrupt()
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 130)
        }
    }
}
