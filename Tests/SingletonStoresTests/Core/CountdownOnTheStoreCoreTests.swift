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
