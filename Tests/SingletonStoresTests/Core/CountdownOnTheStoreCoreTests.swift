import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Synchronization
import Testing

/// The countdown runs on the engine every persisted store runs on: its document is claimed like
/// any store's, and it keeps no transaction, follower or outbox of its own.
@Suite struct CountdownOnTheStoreCoreTests {
    /// The repository's root, found from this file's path.
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func aStoreOfAnotherTypeOnACountdownsDocumentIsRefusedAndTheCountdownRunsOn() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let issues = Mutex<[StoreIssue]>([])
            let report: @Sendable (StoreIssue) -> Void = { issue in issues.withLock { $0.append(issue) } }
            let arrival = CountdownStore(key: "order-arrival", storage: storage, watching: .off, reportIssue: report)

            let counter = ValueStore(key: "order-arrival", default: 0, storage: storage, watching: .off, reportIssue: report)

            let reported = issues.withLock { $0 }
            guard case .documentKeyInUse("order-arrival", "CountdownRecord", "Int")? = reported.first else {
                Issue.record("expected the countdown's document to be in use, got \(reported)")
                return
            }
            #expect(reported.count == 1)
            #expect(throws: StorageError.self) { try counter.update { $0 = 1 } }
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "order-arrival.json").path))
            try arrival.start(duration: .seconds(60))
            #expect(arrival.remainingSeconds == 60)
            try arrival.stop()
        }
    }

    /// The transaction the countdown's item spends go through: a body that reads another
    /// document under the lock and throws changes nothing, on disk or in memory, and posts
    /// nothing; one that returns is written, committed and posted like `update`.
    @Test func aTransactionWhoseBodyThrowsChangesNothingAndOneThatReturnsIsCommitted() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            try storage.save(3, to: StoreDocument(key: "items", default: 0))
            let core = PersistentStoreCore(
                StoreDocument(key: "spent", default: 0), storage: storage,
                channel: NotificationChannel("Spent.changed"), center: NotificationCenter(), watching: .off)
            let posts = Mutex<[StoreChange<Int>]>([])
            let token = core.observe { change in posts.withLock { $0.append(change) } }
            defer { token.cancel() }
            let refused = StorageError.invalidKey("items", reason: "refused by the test")

            #expect(throws: refused) {
                try core.transaction(waits: true) { (spent: inout Int) throws(StorageError) in
                    spent += try storage.load(StoreDocument(key: "items", default: 0)).value
                    throw refused
                }
            }
            #expect(core.state == 0 && posts.withLock { $0.isEmpty })
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "spent.json").path))

            let owned = try core.transaction(waits: false) { (spent: inout Int) throws(StorageError) -> Int in
                let items = try storage.load(StoreDocument(key: "items", default: 0)).value
                spent += 1
                return items - spent
            }
            #expect(owned == 2)
            #expect(core.state == 1 && posts.withLock { $0.map(\.new) } == [1])
            #expect(try storage.load(StoreDocument(key: "spent", default: 0)).value == 1)
        }
    }

    @Test func theCountdownHasNoTransactionFollowerOrOutboxOfItsOwn() throws {
        let countdown = Self.root.appending(path: "Sources/SingletonStores/Countdown")
        guard let walk = FileManager.default.enumerator(at: countdown, includingPropertiesForKeys: nil) else {
            Issue.record("no folder \(countdown.path)")
            return
        }
        let files = walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count >= 5)
        let engine = ["storage.update(", "storage.updateIfAvailable(", ".watch(forKey:", "Outbox<", "WriteTracker"]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for word in engine {
                #expect(!text.contains(word), "\(file.lastPathComponent) uses \(word): go through PersistentStoreCore")
            }
        }
        let core = try String(
            contentsOf: Self.root.appending(path: "Sources/SingletonStores/Core/PersistentStoreCore.swift"), encoding: .utf8)
        #expect(core.contains("storage.update(") && core.contains(".watch(forKey:"), "the check finds what it looks for")
    }
}
