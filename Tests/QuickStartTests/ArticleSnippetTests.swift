// Every Swift code block of the documentation catalogs (Sources/**/*.docc) is mirrored verbatim
// in a test file, between the markers
//
//     // Article "<file name without .md>" snippet <n>: begin
//     …the block's code, exactly…
//     // Article "<file name without .md>" snippet <n>: end
//
// (the markers may be indented, the code between them may not). The mirrors live in the test
// target whose dependencies the code needs, where it is compiled and, where that is cheap, run:
// Tests/SingletonStoresTestingTests/Articles, Tests/StoresTests/Articles and
// Tests/AutomatonTests/Articles. This test checks that article and mirror agree, so an article
// cannot show code that no longer compiles.
import Foundation
import Testing

@Suite struct ArticleSnippetTests {
    /// The articles the package promises; each must show code, all of it mirrored.
    static let requiredArticles = [
        "GettingStarted", "FromAPlainSingleton", "Errors", "PersistenceAndRecovery", "SwiftUIAndUIKit", "StoresInFeatureModules",
        "TestingWithStores", "CountdownsThatAgree", "ScreenFlowsAsStateMachines", "ACountdownOfYourOwn", "AnAppAndItsWidget",
        "AStorageOfYourOwn",
    ]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyArticleSnippetIsMirroredVerbatim() throws {
        let pages = try Self.catalogPages()
        let mirrors = try Self.mirrors()
        var expected = Set<SnippetID>()
        for (page, text) in pages {
            for (index, block) in text.swiftBlocks.enumerated() {
                let id = SnippetID(page: page, number: index + 1)
                expected.insert(id)
                let found = mirrors[id] ?? []
                guard found.count == 1, let mirror = found.first else {
                    Issue.record(
                        """
                        \(id) must be mirrored exactly once in Tests/ (found \(found.count)); copy it \
                        between the markers "// \(id.marker): begin" and "// \(id.marker): end".
                        """)
                    continue
                }
                #expect(mirror.code == block, "\(id) differs from its mirror in \(mirror.file)")
            }
        }
        for (id, found) in mirrors where !expected.contains(id) {
            Issue.record("\(found.map(\.file)) mirror \(id), which no catalog page has: remove the mirror or the markers")
        }
    }

    @Test func everyPromisedArticleShowsCode() throws {
        let pages = try Self.catalogPages()
        for article in Self.requiredArticles {
            let text = try #require(pages[article], "no catalog has \(article).md")
            #expect(!text.swiftBlocks.isEmpty, "\(article).md shows no Swift code")
        }
    }

    /// Every Markdown page of every catalog, by file name without `.md`.
    static func catalogPages() throws -> [String: String] {
        var pages: [String: String] = [:]
        for file in try files(under: "Sources", where: { $0.pathExtension == "md" && $0.path.contains(".docc/") }) {
            let name = file.deletingPathExtension().lastPathComponent
            #expect(pages[name] == nil, "two catalog pages are named \(name).md")
            pages[name] = try String(contentsOf: file, encoding: .utf8)
        }
        #expect(pages.count >= 13, "expected the six landing pages and seven articles, found \(pages.keys.sorted())")
        return pages
    }

    /// Every mirrored snippet in the Swift files under Tests/.
    static func mirrors() throws -> [SnippetID: [SnippetMirror]] {
        var mirrors: [SnippetID: [SnippetMirror]] = [:]
        for file in try files(under: "Tests", where: { $0.pathExtension == "swift" }) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var open: (id: SnippetID, start: Int)?
            for (index, line) in lines.enumerated() {
                guard let (id, isBegin) = SnippetID.parseMarker(line) else { continue }
                if isBegin {
                    if let outer = open { Issue.record("\(file.lastPathComponent): \(id) begins inside \(outer.id)") }
                    open = (id, index + 1)
                } else {
                    guard let current = open, current.id == id else {
                        Issue.record("\(file.lastPathComponent): \(id) ends without its begin marker")
                        continue
                    }
                    let code = lines[current.start..<index].map { $0 + "\n" }.joined()
                    mirrors[id, default: []].append(SnippetMirror(file: file.lastPathComponent, code: code))
                    open = nil
                }
            }
            #expect(open == nil, "\(file.lastPathComponent): \(open.map { "\($0.id)" } ?? "") has no end marker")
        }
        return mirrors
    }

    static func files(under folder: String, where include: (URL) -> Bool) throws -> [URL] {
        let base = root.appending(path: folder, directoryHint: .isDirectory)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter(include).sorted { $0.path < $1.path }
    }
}

/// A code block of a catalog page: the page's file name without `.md`, and the block's number,
/// counting from 1.
struct SnippetID: Hashable, CustomStringConvertible {
    let page: String
    let number: Int

    var marker: String { "Article \"\(page)\" snippet \(number)" }
    var description: String { "snippet \(number) of \(page).md" }

    /// The snippet a marker line names, and whether it begins the snippet.
    static func parseMarker(_ line: Substring) -> (SnippetID, isBegin: Bool)? {
        parseMirrorMarker(line, kind: "Article").map { (SnippetID(page: $0.name, number: $0.number), $0.isBegin) }
    }
}

/// A mirror marker line — `// <kind> "<name>" snippet <n>: begin` (or `: end`), indented or
/// not — as its name, number and whether it begins the snippet; `nil` for any other line. The
/// article mirrors (`Article`) and the doc-comment mirrors (`Doc`) share it.
func parseMirrorMarker(_ line: Substring, kind: String) -> (name: String, number: Int, isBegin: Bool)? {
    let text = line.drop { $0 == " " }
    let prefix = "// \(kind) \""
    guard text.hasPrefix(prefix), text.hasSuffix(": begin") || text.hasSuffix(": end") else { return nil }
    let isBegin = text.hasSuffix(": begin")
    let body = text.dropFirst(prefix.count).dropLast(isBegin ? ": begin".count : ": end".count)
    guard let quote = body.firstIndex(of: "\""),
        body[quote...].hasPrefix("\" snippet "),
        let number = Int(body[body.index(quote, offsetBy: "\" snippet ".count)...])
    else { return nil }
    return (String(body[..<quote]), number, isBegin)
}

/// A mirrored snippet: the file it is in, and its code.
struct SnippetMirror {
    let file: String
    let code: String
}
