import Foundation
import Testing

/// What a module keeps deprecated sits in one file, its `Deprecations.swift`: a reader sees in
/// one place what the next minor version removes, and the rest of the sources hold one way to
/// say each thing.
@Suite struct DeprecationsLayoutTests {
    /// The repository's root, found from this file's path.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Files that may still hold deprecations of their own: the storage seam, whose key-based
    /// forms leave with its move to bytes. Remove an entry when its file has none.
    static let notYetMoved: Set<String> = []

    @Test func deprecationsSitInDeprecationsSwiftAlone() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let walk = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files = 0
        for case let file as URL in walk where file.pathExtension == "swift" {
            files += 1
            let path = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            guard file.lastPathComponent != "Deprecations.swift", !Self.notYetMoved.contains(path) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(
                Self.deprecationCount(in: text) == 0,
                "\(path) declares something deprecated: remove it, or move it to its module's Deprecations.swift")
        }
        #expect(files > 100, "the walk found the sources")
    }

    @Test func theCheckFindsADeprecationInEachSpelling() {
        #expect(Self.deprecationCount(in: "@available(*, deprecated, renamed: \"start(duration:)\")\nfunc f() {}") == 1)
        #expect(Self.deprecationCount(in: "@available(\n    *, deprecated,\n    message: \"use g\"\n)\nfunc f() {}") == 1)
        #expect(Self.deprecationCount(in: "@available(iOS, deprecated: 18, message: \"use g\")") == 1)
        #expect(Self.deprecationCount(in: "@available(macOS 15, *)\n/// Not deprecated.\nfunc f() {}") == 0)
    }

    /// How many `@available` attributes of `text` deprecate what they mark, in any spelling.
    static func deprecationCount(in text: String) -> Int {
        text.matches(of: /@available\([^)]*\bdeprecated\b/).count
    }
}
