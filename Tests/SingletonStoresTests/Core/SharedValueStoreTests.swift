#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import StoreObservation
import Testing

enum TestWalletError: StoreFailure {
    case insufficientFunds(balance: Int)
    case storage(StorageError)
}

@Suite("A value store on a network storage")
struct SharedValueStoreTests {
    @Test func loadsUpdatesAndPosts() async throws {
        let storage = TestNetworkStorage(server: TestServer())
        let store = try await SharedValueStore(key: "visits", default: 0, storage: storage, center: NotificationCenter())
        #expect(store.value == 0)
        let changes = Recorder<Int>()
        let token = store.observe { changes.append($0.new) }
        try await store.update { $0 += 1 }
        try await store.set(5)
        #expect(store.value == 5)
        #expect(changes.values == [1, 5])
        let again = try await SharedValueStore(key: "visits", default: 0, storage: storage, follows: false)
        #expect(again.value == 5, "what the server holds")
        withExtendedLifetime(token) {}
    }

    @Test func aRefusalChangesNothing() async throws {
        let storage = TestNetworkStorage(server: TestServer())
        let wallet = try await SharedValueStore(key: "wallet", default: 0, storage: storage)
        try await wallet.set(3)
        await #expect(throws: TestWalletError.self) {
            try await wallet.update { (balance: inout Int) throws(TestWalletError) in
                guard balance >= 5 else { throw .insufficientFunds(balance: balance) }
                balance -= 5
            }
        }
        #expect(wallet.value == 3)
        let reread = try await SharedValueStore(key: "wallet", default: 0, storage: storage, follows: false)
        #expect(reread.value == 3)
    }

    /// A second store — another process, another machine — hears the first's commit.
    @Test func anotherStoresCommitIsFollowed() async throws {
        let server = TestServer()
        let first = try await SharedValueStore(key: "flags", default: "off", storage: TestNetworkStorage(server: server))
        let second = try await SharedValueStore(
            key: "flags", default: "off", storage: TestNetworkStorage(server: server), center: NotificationCenter())
        var changes = second.changes(buffering: .unbounded).makeAsyncIterator()
        try await first.set("on")
        let change = await changes.next()
        #expect(change?.new == "on")
        #expect(change?.origin == .otherProcess)
        #expect(second.value == "on")
    }

    /// A storage whose notices carry the document answers a follower from them: after its watch
    /// is called, a store reads with `readHeard`, and only `reload()` reads with `read`.
    @Test func aFollowerTakesOtherWritersChangesWithReadHeard() async throws {
        let server = TestServer()
        let counting = HeardAnswering(base: TestNetworkStorage(server: server))
        let first = try await SharedValueStore(key: "flags", default: "off", storage: TestNetworkStorage(server: server))
        let second = try await SharedValueStore(
            key: "flags", default: "off", storage: counting, center: NotificationCenter())
        #expect(counting.counts == (reads: 1, heard: 0), "the first load reads")
        var changes = second.changes(buffering: .unbounded).makeAsyncIterator()
        try await first.set("on")
        #expect(await changes.next()?.new == "on")
        #expect(counting.counts == (reads: 1, heard: 1))
        try await second.reload()
        #expect(counting.counts == (reads: 2, heard: 1))
    }

    /// What `readHeard` answers is acted on only when it is a current document as it is: bytes
    /// that are not (a forged or damaged notice) make the store read the document, and take what
    /// the storage holds, with no issue reported and nothing set aside.
    @Test func heardBytesThatAreNotADocumentAreReadAgain() async throws {
        let server = TestServer()
        // A document of a format newer than this library's: read from the storage, the store
        // would keep its value and report it; heard, it is not taken for the storage's answer.
        let newer = Data(#"{"formatVersion": 99, "value": "forged"}"#.utf8)
        let garbled = HeardAnswering(base: TestNetworkStorage(server: server)) { key, _ in
            StoredBytes(newer, location: TestNetworkStorage.location(key))
        }
        let first = try await SharedValueStore(key: "flags", default: "off", storage: TestNetworkStorage(server: server))
        let issues = Recorder<StoreIssue>()
        let second = try await SharedValueStore(
            key: "flags", default: "off", storage: garbled, center: NotificationCenter(), reportIssue: { issues.append($0) })
        try await first.set("on")
        #expect(await waitUntil { garbled.counts.heard == 1 && second.value == "on" })
        #expect(garbled.counts == (reads: 2, heard: 1))
        #expect(issues.values.isEmpty)
        #expect(server.state.withLock { Array($0.documents.keys) } == ["flags"], "nothing was set aside")
    }

    /// Without a `readHeard` of its own, a storage's is its `read`.
    @Test func readHeardIsReadByDefault() async throws {
        let storage = TestNetworkStorage(server: TestServer())
        try await storage.save("on", to: StoreDocument(key: "flags", default: "off"))
        let heard = try await storage.readHeard("flags")
        let read = try await storage.read("flags")
        #expect(heard?.bytes == read?.bytes)
        #expect(heard != nil)
        await #expect(throws: StorageError.self) { _ = try await storage.readHeard("../flags") }
    }

    /// A change committed whose flush was not confirmed is done: the store holds it, returns the
    /// body's result and reports the doubt.
    @Test func aCommitNotConfirmedOnDiskIsDoneAndReported() async throws {
        let server = TestServer()
        let issues = Recorder<StoreIssue>()
        let wallet = try await SharedValueStore(
            key: "wallet", default: 10, storage: TestNetworkStorage(server: server), reportIssue: { issues.append($0) })
        server.state.withLock {
            $0.afterCommit = (.notDurable(file: TestNetworkStorage.location("wallet"), reason: "a failed flush"), true)
        }
        let left = try await wallet.update { (balance: inout Int) -> Int in
            balance -= 3
            return balance
        }
        #expect(left == 7, "the body's own result, not one of a second run")
        #expect(wallet.value == 7)
        guard case .storageRecovered(.notDurable)? = issues.values.first else {
            Issue.record("reported \(issues.values)")
            return
        }
    }

    /// The connection dropped during the commit and the outcome is unknown: the store reads the
    /// document again, shows what is there, and throws, whether the change was made or not.
    @Test(arguments: [true, false])
    func aCommitWhoseOutcomeIsUnknownIsThrownAfterReadingAgain(committed: Bool) async throws {
        let server = TestServer()
        let wallet = try await SharedValueStore(key: "wallet", default: 10, storage: TestNetworkStorage(server: server))
        let unknown = StorageError.commitOutcomeUnknown(backend: "test server", key: "wallet", reason: "connection reset")
        server.state.withLock { $0.afterCommit = (unknown, committed) }
        await #expect(throws: StorageError.self) {
            try await wallet.update { $0 -= 3 }
        }
        #expect(wallet.value == (committed ? 7 : 10), "what the server holds")
    }

    /// A backend that can't be reached at launch: no store, and an error naming the backend.
    @Test func aBackendDownAtLaunchThrowsAndNamesIt() async {
        let server = TestServer()
        server.state.withLock { $0.down = true }
        await #expect {
            _ = try await SharedValueStore(key: "count", default: 0, storage: TestNetworkStorage(server: server))
        } throws: { error in
            guard case StorageError.backendUnreachable(let backend, _) = error else { return false }
            return backend.contains("db.example:5432") && "\(error)".contains("Nothing was read or changed")
        }
    }

    /// Writers waiting for the server hold no thread: with eight updates suspended on a held
    /// document, other tasks on the same pool go on.
    // The limits only end a hang (a store that blocked the pool's threads): the checks take no
    // time of their own, however loaded the machine (the suite runs under the thread sanitizer
    // beside hundreds of other tests).
    @Test(.timeLimit(.minutes(10)))
    func waitingWritersHoldNoThread() async throws {
        let server = TestServer()
        let store = try await SharedValueStore(key: "counter", default: 0, storage: TestNetworkStorage(server: server))
        server.hold()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { try await store.update { $0 += 1 } } }
            // A heartbeat on the same pool: it can only finish if no thread is held.
            var beats = 0
            while server.heldCount < 1 || beats < 100 {
                await Task.yield()
                beats += 1
            }
            #expect(store.value == 0, "nothing committed while held")
            server.release()
            try await group.waitForAll()
        }
        #expect(store.value == 8)
    }

    /// A blocking storage used through `asynchronous`: writers that wait for another process's
    /// file lock wait on threads of the storage's, not of the pool. (Were they to block the
    /// pool's threads, the heartbeat could only run once they gave up, after the lock timeout.)
    @Test(.timeLimit(.minutes(10)))
    func fileStorageWritersWaitingForALockHoldNoPoolThread() async throws {
        try await withTemporaryFolder { folder in
            // A lock timeout longer than the test's time limit: a writer never gives up during
            // the heartbeat, however loaded the machine.
            let storage = FileStorage(folder: folder, lockTimeout: .seconds(300), reportNotice: { _ in })
            let store = try await SharedValueStore(
                key: "counter", default: 0, storage: storage.asynchronous, follows: false)
            try await store.set(1)
            // Another open file description holds the document's lock, as another process would.
            let lock = open(folder.appending(path: "counter.lock").path(percentEncoded: false), O_RDWR)
            #expect(lock >= 0)
            #expect(flock(lock, LOCK_EX) == 0)
            let finished = Recorder<Int>()
            let writers = (0..<8).map { _ in
                Task {
                    defer { finished.append(1) }
                    try await store.update { $0 += 1 }
                }
            }
            for _ in 0..<100 { await Task.yield() }
            #expect(finished.values.isEmpty, "the heartbeat ran while every writer waited")
            #expect(store.value == 1)
            flock(lock, LOCK_UN)
            close(lock)
            for writer in writers { try await writer.value }
            #expect(store.value == 9)
        }
    }
}

/// A storage's stored properties never reach a message through `asynchronous`: one holding a
/// password is described by its type's name.
@Test func anAsynchronousStorageDescribesItsBaseWithoutItsProperties() {
    struct Credentialed: StoreStorage {
        let url = "postgres://app:s3cret@db.example:5432/app"
        let base = InMemoryStorage()
        func read(_ key: String) throws(StorageError) -> StoredBytes? { try base.read(key) }
        func transaction<Result>(
            _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
        ) throws(StorageError) -> DocumentCommit<Result>? { try base.transaction(key, waits: waits, body) }
        func watch(
            forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
        ) throws(StorageError) -> StorageWatch? { nil }
    }
    let description = Credentialed().asynchronous.description
    #expect(!description.contains("s3cret"))
    #expect(description.contains("Credentialed"))
}
