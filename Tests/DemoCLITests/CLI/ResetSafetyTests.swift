#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import SingletonStoresLocking
import Synchronization
import Testing
import SingletonStores
@testable import demo_cli

/// `reset` and the creation of a data folder act through a descriptor of the folder they
/// checked, and `reset` removes only files proven the library's own.
@Suite("reset and folder creation on folders that are not only ours")
struct ResetSafetyTests {
    /// The unprivileged user who plants links and folders (`nobody` on most systems).
    static let nobody: uid_t = 65534

    /// What each test does when the process reaches a fault-injection point, by point name.
    /// Installed once for the whole test process: every test names its own folder's point.
    private static let actions = Locked<[String: @Sendable () -> Void]>([:])  // not a bare Mutex: the sanitizer follows it
    private static let installed: Void = FaultInjection.install { point in
        let action = actions.withLock { $0.removeValue(forKey: point.name) }
        action?()
    }

    /// Runs `action` once, when the process reaches `point`.
    static func at(_ point: FaultInjection.Point, _ action: @escaping @Sendable () -> Void) {
        _ = installed
        actions.withLock { $0[point.name] = action }
    }

    private func run(_ arguments: [String], folder: String) async -> (demo_cli.ExitStatus, CapturedOutput) {
        let output = CapturedOutput()
        let status = await DemoCLI.run(
            arguments: ["--data-dir", folder] + arguments, environment: [:], console: output.console(isTerminal: false))
        return (status, output)
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)).sorted()
    }

    private static let libraryDocument = "{\n  \"formatVersion\" : 2,\n  \"value\" : {}\n}"

    /// A folder only its owner may enter, holding a library document, its lock file and
    /// another file: what a planted link must never reach.
    private func makeVictim(in parent: URL) throws -> URL {
        let victim = parent.appending(path: "victim", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
        try #require(chmod(victim.path(percentEncoded: false), 0o700) == 0)
        try Data(Self.libraryDocument.utf8).write(to: victim.appending(path: "purchases.json"))
        try Data().write(to: victim.appending(path: "purchases.lock"))
        try Data(Self.libraryDocument.utf8).write(to: victim.appending(path: "boost.json"))
        return victim
    }

    /// A shared folder such as `/tmp`: anyone may add names (sticky bit, writable by all).
    private func makeShared(in parent: URL) throws -> URL {
        let shared = parent.appending(path: "shared", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        try #require(chmod(shared.path(percentEncoded: false), 0o1777) == 0)
        return shared
    }

    /// Puts a symbolic link at `path` to `target`, as `nobody` would (given to them when the
    /// test runs as root).
    private static func plantLink(at path: String, to target: String) {
        guard symlink(target, path) == 0 else { return }
        if geteuid() == 0 { _ = lchown(path, nobody, gid_t(nobody)) }
    }

    /// Whether the data folder existed when `reset` checked it, before the link was planted.
    enum Start: String, CaseIterable, CustomTestStringConvertible {
        case folderMissing, folderPresent
        var testDescription: String { rawValue }
    }

    /// From outside: when the data folder was checked and then swapped for a link to a
    /// root-only folder, `reset --yes` removed that folder's library files through the link.
    /// Here the link is planted at the very moment between the check and the removal: whether
    /// the data folder was missing or present at the check, the folder behind the link keeps
    /// every file, and a present folder, moved away, is the one emptied.
    @Test(arguments: Start.allCases)
    func aLinkPlantedAfterTheCheckRedirectsNothing(_ start: Start) async throws {
        try await withTemporaryFolder { parent in
            let victim = try makeVictim(in: parent)
            let shared = try makeShared(in: parent)
            let data = shared.appending(path: "data", directoryHint: .isDirectory)
            let dataPath = data.path(percentEncoded: false)
            let moved = shared.appending(path: "data-moved", directoryHint: .isDirectory)
            if start == .folderPresent {
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
                try #require(chmod(dataPath, 0o700) == 0)
                try Data(Self.libraryDocument.utf8).write(to: data.appending(path: "profile.json"))
            }
            let victimPath = victim.path(percentEncoded: false)
            let movedPath = moved.path(percentEncoded: false)
            Self.at(.dataFolderChecked(String(dataPath.dropLast()))) {
                if start == .folderPresent { _ = rename(String(dataPath.dropLast()), String(movedPath.dropLast())) }
                Self.plantLink(at: String(dataPath.dropLast()), to: victimPath)
            }
            defer {
                Self.actions.withLock {
                    _ = $0.removeValue(forKey: FaultInjection.Point.dataFolderChecked(String(dataPath.dropLast())).name)
                }
            }

            let (status, output) = await run(["reset", "--yes"], folder: dataPath)

            #expect(try names(in: victim) == ["boost.json", "purchases.json", "purchases.lock"], "\(output.standardOutput)")
            switch start {
            case .folderMissing:
                #expect(status == .success)
                #expect(output.standardOutput.contains("No saved files in "), "\(output.standardOutput)")
            case .folderPresent:
                #expect(status == .success)
                #expect(try names(in: moved) == [], "the folder that was checked is the one emptied")
                #expect(output.standardOutput.contains("Removed 1 file from "), "\(output.standardOutput)")
            }
        }
    }

    /// What `nobody` puts in place of a folder still to be created.
    enum Planted: String, CaseIterable, CustomTestStringConvertible {
        case folderOfNobody, linkToAFolderOfNobody
        var testDescription: String { rawValue }
    }

    /// From outside: a data folder two levels below a shared folder was being created when
    /// `nobody` put a folder of their own (or a link to one) in place of the first level; the
    /// second level was then created inside it, a root-owned folder left in nobody's folder.
    /// Here it is planted between the check and the creation: the write is refused and nothing
    /// is created in nobody's folder.
    @Test(
        .enabled(if: geteuid() == 0, "a folder of another user needs root to make"),
        arguments: Planted.allCases)
    func aFolderPlantedWhileTheDataFolderIsCreatedGetsNothingInIt(_ planted: Planted) throws {
        try withTemporaryFolder { parent in
            let shared = try makeShared(in: parent)
            let theirs = shared.appending(path: "theirs", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
            try #require(chown(theirs.path(percentEncoded: false), Self.nobody, gid_t(Self.nobody)) == 0)
            let level = shared.appending(path: "app", directoryHint: .isDirectory)
            let data = level.appending(path: "data", directoryHint: .isDirectory)
            let dataPath = String(data.path(percentEncoded: false).dropLast())
            let levelPath = String(level.path(percentEncoded: false).dropLast())
            let theirsPath = theirs.path(percentEncoded: false)
            Self.at(.dataFolderChecked(dataPath)) {
                switch planted {
                case .folderOfNobody:
                    _ = mkdir(levelPath, 0o755)
                    _ = chown(levelPath, Self.nobody, gid_t(Self.nobody))
                case .linkToAFolderOfNobody:
                    Self.plantLink(at: levelPath, to: theirsPath)
                }
            }
            defer { Self.actions.withLock { _ = $0.removeValue(forKey: FaultInjection.Point.dataFolderChecked(dataPath).name) } }

            let storage = FileStorage(folder: data, reportNotice: { _ in })
            #expect(throws: StorageError.self) {
                try storage.save(1, to: StoreDocument(key: "counter", default: 0))
            }

            #expect(try names(in: theirs) == [], "nothing was created in nobody's folder")
            if planted == .folderOfNobody { #expect(try names(in: level) == []) }
        }
    }

    /// From outside: `reset --yes` in a folder the library did not make removed a user's
    /// `profile.json` that began `{"formatVersion": 3`, and an empty lock file beside it. Only
    /// files proven the library's go; the others are named, each with why it was left.
    @Test func filesNotProvenTheLibrarysSurviveResetAndAreNamed() async throws {
        try await withTemporaryFolder { folder in
            let theirs: [String: String] = [
                "profile.json": "{\"formatVersion\": 3, \"thesis\": {\"title\": \"Soil\", \"chapters\": 7}}",
                "profile.lock": "",
                "boost.json": "{\"formatVersion\": 2, \"value\": {}, \"note\": \"mine\"}",
                "apiTarget.json": "{\"formatVersion\": 3, \"value\": {}}",
                "receipts.lock": "",
            ]
            for (name, text) in theirs { try Data(text.utf8).write(to: folder.appending(path: name)) }
            try Data(Self.libraryDocument.utf8).write(to: folder.appending(path: "purchases.json"))
            try Data().write(to: folder.appending(path: "purchases.lock"))

            let (status, output) = await run(["reset", "--yes"], folder: folder.path(percentEncoded: false))

            #expect(status == .success)
            #expect(try names(in: folder) == theirs.keys.sorted(), "\(output.standardOutput)")
            for (name, text) in theirs {
                #expect(try String(contentsOf: folder.appending(path: name), encoding: .utf8) == text)
            }
            let text = output.standardOutput
            #expect(text.contains("Removed 2 files from "), "\(text)")
            #expect(text.contains("purchases.json, purchases.lock."), "\(text)")
            #expect(text.contains("Left in place, not proven saved by demo-cli:"), "\(text)")
            #expect(text.contains("  profile.json: it has the key “thesis”, which the app's documents do not have"), "\(text)")
            #expect(text.contains("  profile.lock: the document beside it, profile.json, is not the app's"), "\(text)")
            #expect(text.contains("  boost.json: it has the key “note”"), "\(text)")
            #expect(text.contains("  apiTarget.json: it says it is of format 3, newer than"), "\(text)")
            #expect(
                text.contains(
                    "  receipts.lock: there is no document of the app beside it, in a folder the app did not make for itself"),
                "\(text)")
        }
    }

    /// In a folder the library made for itself, an empty lock file with no document is its
    /// own, and goes.
    @Test func aLoneLockFileInTheLibrarysOwnFolderIsRemoved() async throws {
        try await withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)
            try Data().write(to: folder.appending(path: "receipts.lock"))

            let (status, output) = await run(["reset", "--yes"], folder: folder.path(percentEncoded: false))

            #expect(status == .success)
            #expect(output.standardOutput.contains("Removed 1 file from "), "\(output.standardOutput)")
            #expect(try names(in: folder) == [".singleton-stores-folder"])
        }
    }

    /// A file proven the library's and then replaced by another before its removal is left:
    /// a removal names the very file that was proven, by device and inode.
    @Test func aFileReplacedAfterItWasProvenIsLeft() throws {
        try withTemporaryFolder { folder in
            let document = folder.appending(path: "boost.json")
            try Data(Self.libraryDocument.utf8).write(to: document)
            let opened = try #require(try LibraryFiles.open(folder))
            let own = LibraryFiles.files(forKey: "boost", in: opened).own
            try #require(own.map(\.name) == ["boost.json"])
            // Another file put in its place (made first, so it can't reuse the inode).
            let other = folder.appending(path: "other")
            try Data("{}".utf8).write(to: other)
            try #require(rename(other.path(percentEncoded: false), document.path(percentEncoded: false)) == 0)

            #expect(LibraryFiles.remove(own[0], in: opened) == .replaced)
            #expect(try String(contentsOf: document, encoding: .utf8) == "{}")
        }
    }
}
