import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Synchronization
import Testing

private struct Cart: Codable, Sendable, Equatable { var items: [String] = [] }
private struct AppSettings: Codable, Sendable, Equatable { var theme = "light" }

/// Two stores of different types on one document: the second is refused and never touches the
/// first's document.
@Suite struct DocumentKeyClashTests {
    @Test func aSecondStoreOfAnotherTypeIsReportedAndLeavesTheFirstsDocumentIntact() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let issues = Mutex<[StoreIssue]>([])
            let report: @Sendable (StoreIssue) -> Void = { issue in issues.withLock { $0.append(issue) } }
            let cart = ValueStore(key: "settings", default: Cart(), storage: storage, watching: .off, reportIssue: report)
            try cart.update { $0.items = ["tea"] }
            let document = folder.appending(path: "settings.json")
            let written = try Data(contentsOf: document)

            let settings = ValueStore(
                key: "settings", default: AppSettings(theme: "dark"), storage: storage, watching: .off,
                reportIssue: report)

            let reported = issues.withLock { $0 }
            #expect(reported.count == 1)
            guard case .documentKeyInUse(let key, let usedBy, let requestedBy)? = reported.first else {
                Issue.record("expected documentKeyInUse, got \(reported)")
                return
            }
            #expect(key == "settings")
            #expect(usedBy.hasSuffix("Cart") && requestedBy.hasSuffix("AppSettings"))
            #expect("\(reported[0])".contains("another key"))
            #expect(settings.value == AppSettings(theme: "dark"), "the refused store starts from its default")
            guard case .documentOfAnotherStore(let file, "Cart", "AppSettings")? = settings.loadProblem else {
                Issue.record("expected another store's document, got \(String(describing: settings.loadProblem))")
                return
            }
            #expect(file.lastPathComponent == "settings.json")
            #expect(throws: StorageError.documentOfAnotherStore(file: file, owner: "Cart", store: "AppSettings")) {
                try settings.update { $0.theme = "blue" }
            }

            #expect(try Data(contentsOf: document) == written, "the first store's document is unchanged")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".lock") }
            #expect(names == ["settings.json"], "nothing was moved aside: \(names)")
            try cart.update { $0.items.append("milk") }
            #expect(cart.value.items == ["tea", "milk"])
        }
    }

    @Test func storesOfTheSameTypeShareADocumentAndAReleasedStoreFreesIt() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let issues = Mutex<[StoreIssue]>([])
            let report: @Sendable (StoreIssue) -> Void = { issue in issues.withLock { $0.append(issue) } }
            func shareTheCart() throws {
                let first = ValueStore(key: "cart", default: Cart(), storage: storage, watching: .off, reportIssue: report)
                let second = ValueStore(key: "cart", default: Cart(), storage: storage, watching: .off, reportIssue: report)
                try first.update { $0.items = ["tea"] }
                try second.update { $0.items.append("milk") }
                #expect(second.value.items == ["tea", "milk"], "the second started from the first's write")
            }
            try shareTheCart()
            #expect(issues.withLock { $0 }.isEmpty, "two stores of one type on one document are not a clash")

            // Both stores of Cart are gone, so their claim ended; the document, which records
            // that Cart wrote it, still keeps a store of another type off it.
            let settings = ValueStore(key: "cart", default: AppSettings(), storage: storage, watching: .off, reportIssue: report)
            let clashes = issues.withLock { $0 }.filter {
                if case .documentKeyInUse = $0 { true } else { false }
            }
            #expect(clashes.isEmpty, "the released stores' claim ended")
            #expect(settings.value == AppSettings())
            guard case .documentOfAnotherStore(_, "Cart", "AppSettings")? = settings.loadProblem else {
                Issue.record("expected another store's document, got \(String(describing: settings.loadProblem))")
                return
            }
            #expect(try storage.load(StoreDocument(key: "cart", default: Cart())).value.items == ["tea", "milk"])
        }
    }
}
