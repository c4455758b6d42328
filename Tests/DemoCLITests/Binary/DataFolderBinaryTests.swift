#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// The data folder through the binary: an unusable one is one clear error, never defaults
/// shown as if they were stored.
@Suite("The data folder through the binary", .hangLimit, .ownThread)
struct DataFolderBinaryTests {
    @Test(arguments: [["profile", "show"], ["boost", "status"], ["boost", "start"], ["purchase", "buy"]])
    func anUnusableFolderIsOneErrorAndAFailure(_ command: [String]) throws {
        try withDemoBinary { binary in
            let file = binary.dataFolder.appending(path: "file")
            try Data("not a folder".utf8).write(to: file)
            let folder = file.appending(path: "data").path(percentEncoded: false)
            let result = try binary.run(["--data-dir", folder] + command, withDataFolder: false)
            #expect(result.reason == .exit && result.status == 1, "\(result)")
            #expect(result.standardOutput.isEmpty, "no defaults shown as if stored")
            #expect(result.errorLines.count == 1, "\(result.errorLines)")
            #expect(result.errorLines.first?.hasPrefix("demo-cli: The data folder \(folder)") == true)
            #expect(result.standardError.contains("a file is in the way at \(file.path(percentEncoded: false))"))
        }
    }

    @Test func aPathWithAnOverLongNameCreatesNoFolder() throws {
        try withDemoBinary { binary in
            let parents = (1...20).map { "p\($0)" }.joined(separator: "/")
            let folder = binary.dataFolder.path(percentEncoded: false) + "/\(parents)/" + String(repeating: "x", count: 300)
            let result = try binary.run(["--data-dir", folder, "boost", "start"], withDataFolder: false)
            #expect(result.reason == .exit && result.status == 1, "\(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1, "\(result.errorLines)")
            #if os(Linux)
            #expect(result.standardError.contains("300 bytes long"))
            #endif
            #expect(try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false)).isEmpty)
        }
    }

    /// From outside: a folder whose path fits but whose files' names don't was created 125
    /// levels deep, then every command named an internal file.
    @Test func aFolderTooDeepForItsFilesIsOneClearErrorAndCreatesNothing() throws {
        try withDemoBinary { binary in
            var folder = binary.dataFolder.path(percentEncoded: false)
            while folder.hasSuffix("/") { folder.removeLast() }
            while folder.utf8.count + 101 < 4080 { folder += "/" + String(repeating: "d", count: 100) }
            folder += "/" + String(repeating: "e", count: 4080 - folder.utf8.count - 1)
            for command in [["profile", "show"], ["boost", "start"]] {
                let result = try binary.run(["--data-dir", folder] + command, withDataFolder: false)
                #expect(result.reason == .exit && result.status == 1, "\(result)")
                #expect(result.errorLines.count == 1, "\(result.errorLines)")
                #expect(result.standardError.contains("leaves no room for the names of the files kept in it"))
                #expect(!result.standardError.contains("folder-check"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false)).isEmpty)
        }
    }

    /// From outside: `nobody` made a link in a sticky shared folder to a folder only root may
    /// enter; root's `reset --yes` through it deleted that folder's files, and a read renamed one.
    @Test(.enabled(if: geteuid() == 0, "giving a link to another user needs root"))
    func resetThroughAnotherUsersLinkIsRefusedAndRemovesNothing() throws {
        try withDemoBinary { binary in
            let base = binary.dataFolder.path(percentEncoded: false).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let target = "/\(base)/root-only"
            let set = try binary.run(["--data-dir", target, "profile", "set", "--nickname", "Root"], withDataFolder: false)
            try #require(set.status == 0, "\(set)")
            let shared = "/\(base)/shared"
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
            #expect(chmod(shared, 0o1777) == 0)
            let link = "\(shared)/data"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            #expect(lchown(link, 65534, 65534) == 0)
            let before = try FileManager.default.contentsOfDirectory(atPath: target).sorted()
            for command in [["reset", "--yes"], ["profile", "show"]] {
                let result = try binary.run(["--data-dir", link] + command, withDataFolder: false)
                #expect(result.reason == .exit && result.status == 1, "\(result)")
                #expect(result.errorLines.count == 1, "\(result.errorLines)")
                #expect(result.standardError.contains("symbolic link \(link), which belongs to another user (uid 65534)"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: target).sorted() == before)
            let shown = try binary.run(["--data-dir", target, "profile", "show"], withDataFolder: false)
            #expect(shown.lines.first == "nickname: Root")
        }
    }

    /// From outside: with the data folder at a home folder, `profile show` renamed the user's own
    /// `profile.json` to `profile~corrupt-….json`.
    @Test func aReadLeavesTheUsersOwnFileInADocumentsPlace() throws {
        try withDemoBinary { binary in
            let profile = binary.dataFolder.appending(path: "profile.json")
            try Data("my own profile, not JSON".utf8).write(to: profile)
            _ = try binary.run(["profile", "show"])
            _ = try binary.run(["profile", "set", "--nickname", "Aki"])
            #expect(try String(contentsOf: profile, encoding: .utf8) == "my own profile, not JSON")
            let names = try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false))
            #expect(!names.contains { $0.hasPrefix("profile~") }, "\(names)")
        }
    }

    @Test func dataDirPrintsTheFolderInUse() throws {
        try withDemoBinary { binary in
            let folder = binary.dataFolder.path(percentEncoded: false)
            let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            #expect(try binary.run(["data-dir"]).lines == [trimmed])
            #expect(try binary.runInFolder(["data-dir"]).lines == [trimmed])
            #if os(Linux)
            let home = try binary.run(
                ["data-dir"], withDataFolder: false, environment: ["HOME": "/home/aki", "XDG_DATA_HOME": ""])
            #expect(home.lines == ["/home/aki/.local/share/demo-cli"])
            let help = try binary.run(["--help"], withDataFolder: false, environment: ["HOME": "/home/aki", "XDG_DATA_HOME": ""])
            let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("/home/aki/.local/share/demo-cli (the per-user default)"))
            #endif
        }
    }

    @Test func resetRemovesTheStoresFilesAndNothingElse() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["purchase", "buy", "--items", "2"])
            _ = try binary.run(["profile", "set", "--nickname", "Aki"])
            _ = try binary.run(["boost", "start"])
            _ = try binary.run(["target", "set", "dev01"])
            let other = binary.dataFolder.appending(path: "notes.txt")
            try Data("mine".utf8).write(to: other)
            // Standard input is not a terminal: without --yes, nothing is removed.
            let refused = try binary.run(["reset"])
            #expect(refused.reason == .exit && refused.status == 1)
            #expect(refused.errorLines.count == 1)
            #expect(refused.standardError.contains("add --yes"))
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 2")

            let reset = try binary.run(["reset", "--yes"])
            #expect(reset.status == 0, "\(reset)")
            #expect(reset.lines.first?.hasPrefix("Removed 10 files from ") == true, "\(reset.lines)")
            let left = try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false))
            #expect(left == ["notes.txt"])
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 0")
            #expect(try binary.run(["profile", "show"]).lines.first == "nickname: (not set)")
            #expect(try binary.run(["reset", "--yes"]).lines.first?.hasPrefix("No saved files in ") == true)
        }
    }

    /// The refusal names the folder with its control characters escaped, as the prompt does.
    @Test func resetsRefusalWithoutATerminalEscapesTheFolder() throws {
        try withDemoBinary { binary in
            let folder = binary.dataFolder.appending(path: "a\u{1B}]0;x\u{9B}1m\u{202E}b").path(percentEncoded: false)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let refused = try binary.run(["--data-dir", folder, "reset"], withDataFolder: false)
            #expect(refused.reason == .exit && refused.status == 1, "\(refused)")
            #expect(refused.standardError.contains(#"a\u{1B}]0;x\u{9B}1m\u{202E}b"#), "\(refused.standardError)")
            #expect(!refused.standardError.unicodeScalars.contains { [0x1B, 0x9B, 0x202E].contains($0.value) })
        }
    }

    @Test func versionPrintsThePackageVersion() throws {
        try withDemoBinary { binary in
            let result = try binary.run(["--version"])
            #expect(result.status == 0)
            #expect(result.lines == ["demo-cli \(PackageVersion.current) (SingletonStores)"])
        }
    }

    @Test func noGenderIsSpelledNoneEverywhere() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["profile", "show"]).lines.contains("gender: none"))
            #expect(try binary.run(["profile", "set", "--gender", "unset"]).status == 0, "the old spelling is still read")
            let stubbed = try binary.run(["--store-variant", "gender=none", "link", "help"])
            #expect(stubbed.status == 0, "\(stubbed)")
            #expect(stubbed.lines == ["https://www.hoge.com/api/web/help"])
            #expect(try binary.run(["--store-variant", "gender=unset", "link", "help"]).status == 0)
            let showcase = try binary.run(["--seconds", "1", "--speed", "50"])
            #expect(showcase.lines.contains { $0.hasPrefix("Profile: ") && $0.hasSuffix("gender: none") }, "\(showcase.lines)")
            let help = try binary.run(["--help"]).standardOutput
            #expect(!help.contains("unset") && help.contains("gender=female|male|none"))
        }
    }
}
