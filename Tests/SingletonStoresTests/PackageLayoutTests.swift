import Foundation
import Testing

/// The shape of the package that users and maintainers rely on, checked on the source text: the
/// kit imports no built-in store and no clock module (but for its countdown and its coalesced writes), public files hold
/// no unsafe machinery, and
/// nothing a user reads cites the talks by number.
@Suite struct PackageLayoutTests {
    /// The repository's root, found from this file's path.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The countdown (`Sources/SingletonStores/Countdown`) and the coalesced writes (their
    /// policy takes the clock a window is measured on) run on the Timers library's clocks; the
    /// rest of the kit imports no clock module.
    @Test func theKitImportsOnlyTheToolchainTheLockObservationAndTimersForItsCountdown() throws {
        let allowed: Set<String> = [
            "Foundation", "Synchronization", "Dispatch", "Observation", "Darwin", "Glibc", "Musl",
            "StoreObservation", "SingletonStoresLocking", "SingletonStoresFileInfo",
        ]
        let imports = try Self.swiftFiles(under: "Sources/SingletonStores").flatMap { file in
            try Self.importedModules(of: file).map { (file: file.path, module: $0) }
        }
        #expect(!imports.isEmpty)
        let timed = [
            "/Sources/SingletonStores/Countdown/", "/Sources/SingletonStores/Persistence/StoreWritePolicy.swift",
            "/Sources/SingletonStores/Core/Internal/CoalescedWrites.swift",
        ]
        let strays = imports.filter { entry in
            !allowed.contains(entry.module)
                && !(entry.module == "Timers" && timed.contains { entry.file.contains($0) })
        }
        #expect(strays.isEmpty, "the kit must not import \(strays)")
        #expect(imports.contains { $0.module == "Timers" }, "the countdown imports Timers")
        // The look at a file without its times is the file engine's own.
        let fileLooks = imports.filter { $0.module == "SingletonStoresFileInfo" }
        #expect(!fileLooks.isEmpty)
        #expect(
            fileLooks.allSatisfy { $0.file.contains("/Sources/SingletonStores/Persistence/Internal/FileEngine/") },
            "only the file engine looks at files through SingletonStoresFileInfo: \(fileLooks)")
    }

    @Test func onlyTheTestingLibraryImportsSwiftTesting() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 50)
        let importers = try files.filter { try Self.importedModules(of: $0).contains("Testing") }
            .map { $0.path.replacingOccurrences(of: Self.root.path + "/", with: "") }
        #expect(!importers.isEmpty, "SingletonStoresTesting imports Testing")
        let strays = importers.filter { !$0.hasPrefix("Sources/SingletonStoresTesting/") }
        #expect(strays.isEmpty, "only SingletonStoresTesting may import Testing; apps ship the others: \(strays)")
    }

    @Test func publicRegistryAndChannelFilesHoldNoUnsafeMachinery() throws {
        let banned = ["Unmanaged", "unsafeDowncast", "_withUnsafeGuaranteedRef", "nonisolated(unsafe)"]
        for path in ["Sources/SingletonStores/Registry/StoreValues.swift", "Sources/Observation/NotificationChannel.swift"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains("public"), "\(path) is read")
            for word in banned {
                #expect(!text.contains(word), "\(path) contains \(word): move it to an internal file")
            }
        }
    }

    @Test func whatAnAppUsesIsOnTopAndTheMachineryUnderInternal() throws {
        // In these folders a file either declares public API and sits outside `Internal/`, or
        // declares none and sits under it: the folders show what an app uses.
        let folders = ["Sources/SingletonStores/Persistence", "Sources/Observation", "Sources/Timers"]
        for folder in folders {
            let files = try Self.swiftFiles(under: folder)
            #expect(files.count > 5, "\(folder) is read")
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                let declaresPublic = text.firstMatch(of: #/(?m)^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s/#) != nil
                let isInternal = file.path.contains("/Internal/")
                let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
                #expect(
                    declaresPublic != isInternal,
                    "\(path) \(declaresPublic ? "declares public API: move it out of Internal/" : "declares no public API: move it under Internal/")"
                )
            }
        }
    }

    /// The file engine has one room per concern, and a change to one concern touches one room:
    /// only `Lock/` calls `flock`, only `Transaction/` renames a file into place, and every file
    /// of the engine sits in a room.
    @Test func theFileEngineHasARoomPerConcernAndOneRoomLocksAndOneRenames() throws {
        let engine = "Sources/SingletonStores/Persistence/Internal/FileEngine/"
        let rooms = ["Transaction", "Lock", "Files", "Folder", "Watching"]
        let files = try Self.swiftFiles(under: engine)
        #expect(files.count > 10, "the engine is read")
        for file in files {
            let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            let room = path.dropFirst(engine.count).split(separator: "/").first.map(String.init) ?? ""
            #expect(rooms.contains(room), "\(path) sits in no room of the file engine: \(rooms)")
            let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            if room != "Lock" { #expect(!Self.callsFlock(code), "\(path) calls flock: locking belongs in Lock/") }
            if room != "Transaction" {
                #expect(!Self.renamesIntoPlace(code), "\(path) renames a file: writing into place belongs in Transaction/")
            }
        }
        // Nor does any other part of the package lock or rename a document behind the engine.
        for file in try Self.swiftFiles(under: "Sources") where !file.path.contains("/" + engine) {
            let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            #expect(!Self.callsFlock(code) && !Self.renamesIntoPlace(code), "\(file.lastPathComponent) locks or renames files")
        }
    }

    /// One room writes: in the kit, only `Transaction/` calls `pwrite`, `write`, `fdatasync`,
    /// `fsync`, `F_FULLFSYNC` or `rename` — every write, flush, fill and rename of a document, a
    /// temporary file or a folder's names. The file watcher's two writes are no file of the
    /// storage's (its thread's name in `/proc`, a byte into its own wake-up pipe) and are named
    /// here one by one.
    @Test func onlyTheTransactionRoomWritesAndFlushes() throws {
        let engine = "Sources/SingletonStores/Persistence/Internal/FileEngine/"
        let allowed = [
            "Watching/DocumentWatcher.swift": ["write(comm, \"SingletonStores\", 15)", "write(loop.wakeWrite, &byte, 1)"]
        ]
        let files = try Self.swiftFiles(under: "Sources/SingletonStores")
        #expect(files.count > 50, "the kit is read")
        var writers: Set<String> = []
        for file in files {
            let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            var code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            for (room, calls) in allowed where path == engine + room {
                for call in calls {
                    #expect(code.contains(call), "\(path) no longer makes the named call \(call): update the list")
                    code = code.replacingOccurrences(of: call, with: "")
                }
            }
            guard Self.writesOrFlushes(code) else { continue }
            writers.insert(path)
            #expect(
                path.hasPrefix(engine + "Transaction/"),
                "\(path) writes, flushes or renames: that belongs in \(engine)Transaction/")
        }
        #expect(writers.contains(engine + "Transaction/DocumentWrites.swift"), "the check finds the writes: \(writers)")
    }

    /// `DocumentFile` reads, in `Files/`, and is extended by one file only, the transaction
    /// room's system calls; the locks are a type of their own in `Lock/`; `FileStorage` is
    /// extended in two rooms, the files' and the transaction's.
    @Test func theReaderTheLocksAndTheWritesAreEachOneRoom() throws {
        let engine = "Sources/SingletonStores/Persistence/Internal/FileEngine/"
        var extended: [String: Set<String>] = ["DocumentFile": [], "FileStorage": [], "FileLocks": []]
        for file in try Self.swiftFiles(under: "Sources") {
            let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            for name in extended.keys where code.contains("\nextension \(name) {") || code.contains("\nenum \(name) {") {
                extended[name, default: []].insert(path)
            }
        }
        #expect(extended["DocumentFile"] == [engine + "Files/DocumentFile.swift", engine + "Transaction/DocumentWrites.swift"])
        #expect(extended["FileLocks"] == [engine + "Lock/DocumentLock.swift", engine + "Lock/TemporaryLocks.swift"])
        let inEngine = (extended["FileStorage"] ?? []).filter { $0.hasPrefix(engine) }
        let rooms = Set(inEngine.map { String($0.dropFirst(engine.count).prefix { $0 != "/" }) })
        #expect(rooms == ["Files", "Transaction"], "FileStorage is extended in \(inEngine.sorted())")
    }

    /// The stores know storages by the protocol alone: nothing outside `Persistence/` asks
    /// whether a storage is a `FileStorage`, so a storage of one's own around one (it forwards
    /// `documentLocation(forKey:)`) is treated as the `FileStorage` is.
    @Test func noStoreAsksWhetherItsStorageIsAFileStorage() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 100, "the sources are read")
        for file in files where !file.path.contains("/Sources/SingletonStores/Persistence/") {
            let code = Self.code(of: try String(contentsOf: file, encoding: .utf8))
            #expect(!Self.asksForFileStorage(code), "\(file.lastPathComponent) asks whether a storage is a FileStorage")
        }
    }

    @Test func sourcesAndReadmeNeverCiteTalksByNumber() throws {
        // The Swift files and the documentation catalogs' articles.
        var texts = try (Self.swiftFiles(under: "Sources") + Self.catalogPages()).map {
            (name: $0.path, text: try String(contentsOf: $0, encoding: .utf8))
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        texts.append((name: "README.md", text: Self.removingSection("Origins", from: readme)))
        #expect(texts.count > 10)
        let pattern = /(?i)seed ?[0-9]|seeds? [0-9]/
        for (name, text) in texts {
            #expect(text.firstMatch(of: pattern) == nil, "\(name) cites a source by number")
        }
    }

    @Test func theLayoutCheckFindsWhatItLooksFor() {
        #expect(Self.callsFlock(Self.code(of: "let held = flock(descriptor, LOCK_EX)")))
        #expect(!Self.callsFlock(Self.code(of: "/// takes `flock(LOCK_EX)` on it")))
        #expect(Self.renamesIntoPlace(Self.code(of: "if rename(source, target) != 0 {")))
        #expect(Self.renamesIntoPlace(Self.code(of: "DocumentFile.renameItem(kept, to: file)")))
        #expect(Self.writesOrFlushes(Self.code(of: "written = pwrite(descriptor, start, count, offset)")))
        #expect(Self.writesOrFlushes(Self.code(of: "return fdatasync(descriptor)")))
        #expect(Self.writesOrFlushes(Self.code(of: "if fcntl(descriptor, F_FULLFSYNC) == 0 {")))
        #expect(!Self.writesOrFlushes(Self.code(of: "try data.write(to: url)")))
        #expect(Self.asksForFileStorage(Self.code(of: "guard let files = storage as? FileStorage else {")))
        #expect(Self.asksForFileStorage(Self.code(of: "if storage is FileStorage {")))
        #expect(!Self.asksForFileStorage(Self.code(of: "/// as a `FileStorage` is")))
        #expect(!Self.writesOrFlushes(Self.code(of: "pending.reduce(0) { lost, write in write() ? lost : lost + 1 }")))
        // The checks above would pass vacuously if their patterns matched nothing.
        #expect("see seed 004".firstMatch(of: /(?i)seed ?[0-9]|seeds? [0-9]/) != nil)
        #expect(Self.importedModules(ofText: "import Foundation\n@testable import Timers\n") == ["Foundation", "Timers"])
        let readme = "# A\n## Origins\nseed 1\n## Next\nkept\n"
        #expect(Self.removingSection("Origins", from: readme) == "# A\n## Next\nkept\n")
    }

    // MARK: - Reading the tree

    /// `text` without its comments (lines from `//`), so that prose naming a call is no call.
    private static func code(of text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    private static func asksForFileStorage(_ code: String) -> Bool {
        code.firstMatch(of: /\b(as[?!]?|is)\s+FileStorage\b/) != nil
    }

    private static func callsFlock(_ code: String) -> Bool {
        code.firstMatch(of: /(^|[^A-Za-z0-9_])flock\(/) != nil
    }

    /// Whether `code` calls a system call that writes or flushes a file, or renames one (a
    /// method such as `data.write(to:)`, a declaration and a call with no argument are not).
    private static func writesOrFlushes(_ code: String) -> Bool {
        let declarations = code.replacingOccurrences(of: "func write(", with: "").replacingOccurrences(
            of: "func rename", with: "")
        return declarations.firstMatch(of: /(^|[^A-Za-z0-9_.])(pwrite|write|fdatasync|fsync|rename|renameat)\(\s*[^)\s]/) != nil
            || declarations.contains("F_FULLFSYNC")
    }

    private static func renamesIntoPlace(_ code: String) -> Bool {
        code.firstMatch(of: /(^|[^A-Za-z0-9_])(rename|renameat|renameItem|moveItem)\(/) != nil
    }

    private static func catalogPages() throws -> [URL] {
        let base = root.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        let pages = walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
        #expect(pages.count >= 13, "the six landing pages and seven articles")
        return pages
    }

    private static func swiftFiles(under folder: String) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    private static func importedModules(of file: URL) throws -> [String] {
        importedModules(ofText: try String(contentsOf: file, encoding: .utf8))
    }

    /// The modules a source text imports, whatever attributes precede `import`.
    private static func importedModules(ofText text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: /^(?:@\w+(?:\([^)]*\))? +)*import +(?:\w+ +)?(\w+)/) else { return nil }
            return String(match.1)
        }
    }

    /// `markdown` without the `## title` section (up to the next `## ` heading).
    private static func removingSection(_ title: String, from markdown: String) -> String {
        guard let start = markdown.range(of: "## \(title)\n") else { return markdown }
        let end = markdown[start.upperBound...].range(of: "\n## ")?.lowerBound ?? markdown.endIndex
        let next = end == markdown.endIndex ? end : markdown.index(after: end)
        return String(markdown[..<start.lowerBound] + markdown[next...])
    }
}
