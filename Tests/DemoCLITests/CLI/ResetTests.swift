import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// `reset` in-process, with a terminal that answers the question.
@Suite("reset")
struct ResetTests {
    /// A console on a terminal whose user types `answer`.
    private func console(_ output: CapturedOutput, answer: String?) -> Console {
        let base = output.console(isTerminal: true)
        return Console(
            write: base.write, writeError: base.writeError, isTerminal: true, usesColor: false, isInputTerminal: true,
            readLine: { answer })
    }

    private func run(_ arguments: [String], folder: URL, answer: String?) async -> (demo_cli.ExitStatus, CapturedOutput) {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", folder.path(percentEncoded: false)] + arguments, environment: [:],
            console: console(output, answer: answer))
        return (status, output)
    }

    /// Two documents and a lock file as the library writes them, and a file of the user's.
    private func makeStoreFiles(in folder: URL) throws {
        for name in ["purchases.json", "boost.json"] {
            try Data("{\n  \"formatVersion\" : 2,\n  \"value\" : {}\n}".utf8).write(to: folder.appending(path: name))
        }
        try Data().write(to: folder.appending(path: "purchases.lock"))
        try Data("{}".utf8).write(to: folder.appending(path: "notes.txt"))
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    }

    @Test func onATerminalResetAsksAndAYesRemovesTheStoresFiles() async throws {
        try await withTemporaryFolder { folder in
            try makeStoreFiles(in: folder)
            let (status, output) = await run(["reset"], folder: folder, answer: "y")
            #expect(status == .success)
            #expect(output.standardOutput.hasPrefix("Remove the saved boost, profile, purchases and API target from "))
            #expect(output.standardOutput.contains("? [y/N] Removed 3 files from "))
            #expect(try names(in: folder) == ["notes.txt"])
        }
    }

    @Test(arguments: ["n", "", "no", nil] as [String?])
    func anythingButYesRemovesNothing(_ answer: String?) async throws {
        try await withTemporaryFolder { folder in
            try makeStoreFiles(in: folder)
            let (status, output) = await run(["reset"], folder: folder, answer: answer)
            #expect(status == .failure)
            #expect(output.standardOutput.hasSuffix("Nothing was removed.\n"))
            #expect(try names(in: folder).count == 4)
        }
    }

    @Test func yesDoesNotAsk() async throws {
        try await withTemporaryFolder { folder in
            try makeStoreFiles(in: folder)
            let (status, output) = await run(["reset", "--yes"], folder: folder, answer: "n")
            #expect(status == .success)
            #expect(!output.standardOutput.contains("[y/N]"))
            #expect(try names(in: folder) == ["notes.txt"])
        }
    }

    /// From outside: with the data folder at a home folder, `reset --yes` removed the user's
    /// own `profile.json`, `purchases.json`, `profile~draft.tmp` and `boost~1.tmp`.
    @Test func filesThatAreNotTheLibrarysAreLeftAndNamed() async throws {
        try await withTemporaryFolder { home in
            let mine = [
                "profile.json": "my profile, not JSON", "purchases.json": "{}", "profile~draft.tmp": "draft",
                "boost~1.tmp": "1", "boost.lock": "not empty",
            ]
            for (name, text) in mine { try Data(text.utf8).write(to: home.appending(path: name)) }
            let (status, output) = await run(["reset", "--yes"], folder: home, answer: nil)
            #expect(status == .success)
            #expect(try names(in: home) == mine.keys.sorted())
            for (name, text) in mine {
                #expect(try String(contentsOf: home.appending(path: name), encoding: .utf8) == text)
            }
            #expect(output.standardOutput.contains("No saved files in "), "\(output.standardOutput)")
            let left = output.standardOutput.split(separator: "\n").drop { $0 != "Left in place, not proven saved by demo-cli:" }
            #expect(
                left.map { $0.prefix { $0 != ":" } } == [
                    "Left in place, not proven saved by demo-cli", "  boost.lock", "  profile.json", "  purchases.json",
                ], "\(output.standardOutput)")
            #expect(output.standardOutput.contains("  boost.lock: it is not empty"), "\(output.standardOutput)")
        }
    }

    @Test func aLinkInPlaceOfADocumentIsLeftAndWhatItPointsToToo() async throws {
        try await withTemporaryFolder { folder in
            let elsewhere = folder.appending(path: "elsewhere.txt")
            try Data("keep".utf8).write(to: elsewhere)
            let data = folder.appending(path: "data", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(
                atPath: data.appending(path: "profile.json").path(percentEncoded: false),
                withDestinationPath: elsewhere.path(percentEncoded: false))
            let (status, _) = await run(["reset", "--yes"], folder: data, answer: nil)
            #expect(status == .success)
            #expect(try names(in: data) == ["profile.json"])
            #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "keep")
        }
    }
}
