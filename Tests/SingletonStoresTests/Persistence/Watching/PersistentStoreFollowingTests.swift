import SingletonStoresTestSupport
import Foundation
import StoreObservation
@testable import SingletonStores
import Testing

extension NotificationChannel where Payload == StoreChange<PersistedCounter> {
    static let followedCounter = NotificationChannel("Tests.followedCounter.changed")
}

/// A persisted counter on its own storage instance and notification center, recording what it
/// posts and the problems it reports.
private final class FollowingCounter: Sendable {
    let store: PersistentStoreCore<PersistedCounter>
    let posted = Recorder<Int>()
    let issues = Recorder<StoreIssue>()
    private let token: ObservationToken

    init(folder: URL, watching: StorageWatching = .automatic) {
        let issues = self.issues
        store = PersistentStoreCore(
            key: "counter", default: PersistedCounter(), storage: FileStorage(folder: folder),
            channel: .followedCounter, center: NotificationCenter(), watching: watching,
            reportIssue: { issues.append($0) })
        let posted = self.posted
        token = store.observe { posted.append($0.new.count) }
    }

    func set(_ count: Int) throws {
        try store.update { $0.count = count }
    }
}

@Suite("A persisted store follows its document", .ownThread)
struct PersistentStoreFollowingTests {
    @Test(arguments: [StorageWatching.automatic, .polling(every: .milliseconds(10))])
    func anotherInstancesWritesArePostedInOrderAndOwnWritesOnce(watching: StorageWatching) throws {
        try withTemporaryFolder { folder in
            let watcher = FollowingCounter(folder: folder, watching: watching)
            let writer = FollowingCounter(folder: folder, watching: .off)
            if watching == .automatic {
                #expect(watcher.store.watchMechanism == .fileEvents)
            } else {
                #expect(watcher.store.watchMechanism == .polling(interval: .milliseconds(10)))
            }
            // Its own writes: posted once each, never again when their news arrives.
            for count in 1...5 { try watcher.set(count) }
            // Another instance's writes: posted as they arrive, the last one certainly.
            for count in 6...10 { try writer.set(count) }
            #expect(eventually { watcher.posted.values.last == 10 })
            #expect(watcher.store.state.count == 10)
            let posted = watcher.posted.values
            #expect(Array(posted.prefix(5)) == [1, 2, 3, 4, 5])
            let external = Array(posted.dropFirst(5))
            #expect(external == external.sorted() && Set(external).count == external.count)
            #expect(external.allSatisfy { (6...10).contains($0) })
            #expect(watcher.issues.values.isEmpty)
        }
    }

    @Test func aBadDocumentIsReportedOnceKeptAsideAndTheStoreKeepsItsState() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let watcher = FollowingCounter(folder: folder)
            try watcher.set(7)
            let document = try FileStorage(folder: folder).fileURL(forKey: "counter")
            // Garbage written in place, as a careless tool would.
            try Data("{ not json".utf8).write(to: document)
            #expect(eventually { watcher.issues.count == 1 })
            #expect(watcher.store.state.count == 7)
            #expect(watcher.posted.values == [7])
            let kept = try FileManager.default.contentsOfDirectory(atPath: folder.filePath)
                .filter { $0.hasPrefix("counter~") && $0.hasSuffix(".json") }
            #expect(kept.count == 1)
            // A good version written again is followed.
            try FileStorage(folder: folder).save(
                PersistedCounter(count: 8), to: StoreDocument(key: "counter", default: PersistedCounter(count: 8)))
            #expect(eventually { watcher.posted.values.last == 8 })
            #expect(watcher.issues.count == 1)
        }
    }

    @Test func aRemovedDocumentChangesNothing() throws {
        try withTemporaryFolder { folder in
            let watcher = FollowingCounter(folder: folder)
            try watcher.set(3)
            try FileManager.default.removeItem(at: FileStorage(folder: folder).fileURL(forKey: "counter"))
            try FileStorage(folder: folder).save(
                PersistedCounter(count: 4), to: StoreDocument(key: "counter", default: PersistedCounter(count: 4)))
            #expect(eventually { watcher.posted.values.last == 4 })
            #expect(watcher.posted.values == [3, 4])
        }
    }

    @Test func aFolderThatAppearsLaterIsPolledThenWatchedByEvents() throws {
        try withTemporaryFolder { parent in
            let folder = parent.appending(path: "data", directoryHint: .isDirectory)
            let watcher = FollowingCounter(folder: folder)
            #expect(watcher.store.watchMechanism == .polling(interval: StorageWatching.defaultPollInterval))
            try FileStorage(folder: folder).save(
                PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            #expect(eventually { watcher.posted.values.last == 1 })
            #expect(eventually { watcher.store.watchMechanism == .fileEvents })
            try FileStorage(folder: folder).save(
                PersistedCounter(count: 2), to: StoreDocument(key: "counter", default: PersistedCounter(count: 2)))
            #expect(eventually { watcher.posted.values.last == 2 })
        }
    }

    @Test func withoutAFolderWatchTheStorePollsAndStillFollows() throws {
        try withTemporaryFolder { folder in
            let faults = FileFaults([.watchFolder: [ENOSPC]])  // the per-user watch limit, reached
            let watcher = FileFaults.$current.withValue(faults) { FollowingCounter(folder: folder) }
            #expect(faults.isUsedUp)
            #expect(watcher.store.watchMechanism != nil)
            try FileStorage(folder: folder).save(
                PersistedCounter(count: 5), to: StoreDocument(key: "counter", default: PersistedCounter(count: 5)))
            #expect(eventually { watcher.posted.values.last == 5 })
        }
    }

    @Test func aVersionWrittenWhileTheStoreLoadsIsNotMissed() throws {
        try withTemporaryFolder { folder in
            // Many stores made while another instance writes: each must end on the last value.
            let writer = FollowingCounter(folder: folder, watching: .off)
            let watchers = Recorder<FollowingCounter>()
            let finished = DispatchSemaphore(value: 0)
            Thread {
                for count in 1...200 { try? writer.set(count) }
                finished.signal()
            }.start()
            for _ in 0..<20 { watchers.append(FollowingCounter(folder: folder)) }
            finished.wait()
            try writer.set(1_000_000)
            for watcher in watchers.values {
                #expect(eventually { watcher.store.state.count == 1_000_000 })
            }
        }
    }

    @Test func offWatchesNothing() throws {
        try withTemporaryFolder { folder in
            let store = FollowingCounter(folder: folder, watching: .off)
            #expect(store.store.watchMechanism == nil)
            #expect(StorageWatching.polling(every: .zero) == .polling(every: StorageWatching.minimumPollInterval))
            #expect(StorageWatching.polling(every: .seconds(86_400)) == .polling(every: .seconds(3600)))
        }
    }

    /// `isOn`, public since 0.1.0, says whether a store watches at all.
    @Test func isOnIsFalseOnlyForOff() {
        #expect(!StorageWatching.off.isOn)
        #expect(StorageWatching.automatic.isOn)
        #expect(StorageWatching.polling(every: .seconds(1)).isOn)
    }
}
