// Every ```swift block of a doc comment in Sources/ is either mirrored verbatim in a test file,
// between the markers
//
//     // Doc "<path under Sources/>" snippet <n>: begin
//     …the block's code, exactly, without the `/// ` of the comment…
//     // Doc "<path under Sources/>" snippet <n>: end
//
// (the markers may be indented, the code between them may not), where it is compiled and, where
// that is cheap, run — or it is listed in `notYetMirrored` below. This test checks that each
// mirror matches its block, and that the list only shrinks: a new doc example must be mirrored,
// and a mirrored one must leave the list. The mirrors live in the test target whose dependencies
// the code needs, mostly in its DocComments folder: QuickStartTests, TimersTests, StoreObservationTests,
// SingletonStoresTests, SingletonStoresTestingTests, StoresTests, OwnAppTests, LockingTests, AutomatonTests,
// AutomatonExamplesTests and DemoCLITests.
import Foundation
import Testing

@Suite struct DocCommentSnippetTests {
    @Test func everyDocCommentExampleIsMirroredVerbatimOrListed() throws {
        let blocks = try Self.docCommentBlocks()
        let mirrors = try Self.mirrors()
        for (id, block) in blocks.sorted(by: { $0.key < $1.key }) {
            let found = mirrors[id] ?? []
            if Self.notYetMirrored.contains(id) {
                #expect(found.isEmpty, "\(id) is mirrored in \(found.map(\.file)): remove it from notYetMirrored")
                continue
            }
            guard found.count == 1, let mirror = found.first else {
                Issue.record(
                    """
                    The example \(id) must be mirrored exactly once in Tests/ (found \(found.count)): copy it \
                    between "// \(id.marker): begin" and "// \(id.marker): end" in a test that compiles and runs it.
                    """)
                continue
            }
            #expect(mirror.code == block, "\(id) differs from its mirror in \(mirror.file)")
        }
        for (id, found) in mirrors where blocks[id] == nil {
            Issue.record("\(found.map(\.file)) mirror \(id), which no doc comment has: remove the mirror or the markers")
        }
        for id in Self.notYetMirrored where blocks[id] == nil {
            Issue.record("notYetMirrored lists \(id), which no doc comment has: remove it from the list")
        }
    }

    /// The folders under Sources/ whose every doc-comment example is mirrored.
    static let completelyMirrored = [
        "Timers/", "SingletonStoresTesting/", "Observation/", "Stores/", "Locking/", "Automaton/", "AutomatonExamples/",
        "demo-cli/",
    ]

    /// Those folders stay complete, and the examples known to have been wrong stay mirrored.
    @Test func theCompleteFoldersAndTheExamplesThatWereWrongStayMirrored() throws {
        let blocks = try Self.docCommentBlocks()
        let wrongBefore = [
            DocSnippetID(path: "Timers/ManualClock.swift", number: 1),
            DocSnippetID(path: "Timers/ManualClock.swift", number: 2),
            DocSnippetID(path: "SingletonStores/Persistence/InMemoryStorage.swift", number: 1),
            DocSnippetID(path: "SingletonStores/Persistence/DocumentMigrations.swift", number: 3),
            DocSnippetID(path: "SingletonStores/Support/FaultInjection.swift", number: 2),
        ]
        let complete = blocks.keys.filter { id in Self.completelyMirrored.contains { id.path.hasPrefix($0) } }
        #expect(complete.count >= 20)
        for id in wrongBefore + complete {
            #expect(blocks[id] != nil && !Self.notYetMirrored.contains(id), "\(id) must be mirrored")
        }
    }

    /// The doc-comment examples not mirrored yet, by file. Mirror one, then remove it here.
    static let notYetMirrored: Set<DocSnippetID> = [
        // An `@main` SwiftUI app: a test target can hold neither.
        DocSnippetID(path: "SingletonStores/Registry/Launch/PrepareStores.swift", number: 1)
    ]

    /// The ```swift blocks of the doc comments (`///` lines) of every Swift file under Sources/.
    static func docCommentBlocks() throws -> [DocSnippetID: String] {
        var blocks: [DocSnippetID: String] = [:]
        let sources = ArticleSnippetTests.root.appending(path: "Sources", directoryHint: .isDirectory)
        for file in try ArticleSnippetTests.files(under: "Sources", where: { $0.pathExtension == "swift" }) {
            let path = String(file.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, block) in text.docCommentSwiftBlocks.enumerated() {
                blocks[DocSnippetID(path: path, number: index + 1)] = block
            }
        }
        return blocks
    }

    /// Every doc-comment mirror in the Swift files under Tests/.
    static func mirrors() throws -> [DocSnippetID: [SnippetMirror]] {
        var mirrors: [DocSnippetID: [SnippetMirror]] = [:]
        for file in try ArticleSnippetTests.files(under: "Tests", where: { $0.pathExtension == "swift" }) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var open: (id: DocSnippetID, start: Int)?
            for (index, line) in lines.enumerated() {
                guard let (id, isBegin) = DocSnippetID.parseMarker(line) else { continue }
                if isBegin {
                    open = (id, index + 1)
                } else if let current = open, current.id == id {
                    let code = lines[current.start..<index].map { $0 + "\n" }.joined()
                    mirrors[id, default: []].append(SnippetMirror(file: file.lastPathComponent, code: code))
                    open = nil
                } else {
                    Issue.record("\(file.lastPathComponent): \(id) ends without its begin marker")
                }
            }
            #expect(open == nil, "\(file.lastPathComponent): \(open.map { "\($0.id)" } ?? "") has no end marker")
        }
        return mirrors
    }
}

/// A code block of a doc comment: the file's path under Sources/, and the block's number in the
/// file, counting from 1.
struct DocSnippetID: Hashable, Comparable, CustomStringConvertible {
    let path: String
    let number: Int

    var marker: String { "Doc \"\(path)\" snippet \(number)" }
    var description: String { "snippet \(number) of \(path)" }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.path, lhs.number) < (rhs.path, rhs.number) }

    /// The snippet a marker line names, and whether it begins the snippet.
    static func parseMarker(_ line: Substring) -> (DocSnippetID, isBegin: Bool)? {
        parseMirrorMarker(line, kind: "Doc").map { (DocSnippetID(path: $0.name, number: $0.number), $0.isBegin) }
    }
}

extension String {
    /// The contents of every ```swift block of the doc comments (`///` lines) of a Swift source,
    /// in order, without the comment markers: `/// ` and its one space of indentation.
    var docCommentSwiftBlocks: [String] {
        var blocks: [String] = []
        var current: String?
        for line in split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else {
                current = nil
                continue
            }
            var content = trimmed.dropFirst(3)
            if content.hasPrefix(" ") { content = content.dropFirst() }
            if current == nil {
                if content == "```swift" { current = "" }
            } else if content == "```" {
                blocks.append(current ?? "")
                current = nil
            } else {
                current? += content + "\n"
            }
        }
        return blocks
    }
}
