import Foundation
import Testing
@testable import demo_cli

/// `demo-cli` with no command, run as a process with its output piped.
@Suite("Showcase through the binary", .timeLimit(.minutes(1)))
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
        try withDemoBinary { binary in
            let result = try binary.run(["--seconds", "3", "--speed", "20"])
            #expect(result.reason == .exit && result.status == 0)
            #expect(result.standardError.isEmpty)
            #expect(!result.standardOutput.contains("\u{1B}"))
            let panels = Self.panels(result)
            // Every line where both screens show a time shows the same time…
            for panel in panels where panel.popup.contains(":") && panel.popup != "--:--" {
                #expect(panel.main == panel.popup, "the screens disagree: \(panel)")
            }
            // …every second is shown on the main screen…
            let mainSeconds = panels.map(\.main).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(mainSeconds == ["00:03", "00:02", "00:01", "00:00"])
            // …and from the popup's first second on, every second has a line where both agree.
            // (The popup opens 0.4 s in, so it first shows 00:03; only if this process was held
            // up past the next second does it open at 00:02.)
            let firstPopup = try #require(panels.first { $0.popup.contains(":") && $0.popup != "--:--" }?.popup)
            let agreed = panels.filter { $0.main == $0.popup }.map(\.main)
            #expect(agreed == Array(["00:03", "00:02", "00:01", "00:00"].drop { $0 != firstPopup }))
            #expect(agreed.count >= 3)
            #expect(panels.first?.popup == "--:--")
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
            #expect(result.lines.contains("Profile: Aki, female (gender_code=2)"))
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
