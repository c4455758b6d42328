import Foundation
import SingletonStoresLocking
import SingletonStoresTesting
import Testing

@Suite struct StorageConformanceTests {
    @Test func fileStoragePassesEveryCheck() throws {
        try withTemporaryStoreFolder { folder in
            // A folder the storage makes itself: it sets aside bad documents only in its own folders.
            let documents = folder.appending(path: "documents", directoryHint: .isDirectory)
            let failures = StorageConformance.check { FileStorage(folder: documents, reportNotice: { _ in }) }
            #expect(failures.isEmpty)
        }
    }

    @Test func inMemoryStoragePassesEveryCheck() {
        let failures = StorageConformance.check { InMemoryStorage() }
        #expect(failures.isEmpty)
    }

    @Test func aStorageThatIgnoresWritesFails() {
        var failures: [StorageConformance.Failure] = []
        withKnownIssue {
            failures = StorageConformance.check { DefectiveStorage(.ignoresWrites) }
        } matching: { issue in
            issue.description.contains("StoreStorage conformance")
        }
        let checks = Set(failures.map(\.check))
        #expect(checks.isSuperset(of: [.committedBytes, .settingAside, .documents, .migration, .badDocument]))
        #expect(checks.isDisjoint(with: [.missingKey, .invalidKey]))
        let committed = failures.first { $0.check == .committedBytes }
        #expect(committed?.problem == "after committing 276 bytes, read(_:) gave nil")
    }

    @Test func aStorageWithoutLocksFails() {
        var failures: [StorageConformance.Failure] = []
        withKnownIssue {
            failures = StorageConformance.check { DefectiveStorage(.noLocks) }
        }
        let checks = Set(failures.map(\.check))
        // Without a lock a busy key is always seen; lost updates are likely, not certain.
        #expect(checks.contains(.busyKey))
        #expect(checks.isSubset(of: [.busyKey, .concurrentTransactions]))
        let busy = failures.first { $0.check == .busyKey }
        #expect(busy?.description.contains("a transaction with waits: false ran its body") == true)
        #expect(busy?.description.contains("Hold a lock per key for the whole transaction") == true)
    }

    @Test func aStorageThatTrustsEveryKeyFailsOneCheckSayingWhatToCall() {
        var failures: [StorageConformance.Failure] = []
        withKnownIssue {
            failures = StorageConformance.check { DefectiveStorage(.trustsKeys) }
        }
        #expect(failures.map(\.check) == [.invalidKey])
        #expect(
            failures.first?.description
                == "StoreStorage conformance, an invalid key is refused: read(\"\") did not throw StorageError.invalidKey. "
                + "Begin read(_:), transaction(_:waits:_:) and watch(forKey:_:onChange:) with `let key = try Self.validKey(key)`."
        )
    }

    @Test func aStorageThatKeepsNothingAsideFails() {
        var failures: [StorageConformance.Failure] = []
        withKnownIssue {
            failures = StorageConformance.check { DefectiveStorage(.dropsSetAside) }
        }
        #expect(failures.map(\.check) == [.settingAside])
        #expect(failures.first?.problem == "setting a document aside gave no keptAt: say where the document is kept")
    }

    @Test func whatTheFactoryThrowsIsThrownAndNoCheckRuns() {
        struct NoDatabase: Error {}
        var made = 0
        #expect(throws: NoDatabase.self) {
            try StorageConformance.check { () throws -> InMemoryStorage in
                made += 1
                throw NoDatabase()
            }
        }
        #expect(made == 1)
    }
}

/// A storage in memory with one defect, for the suite to find.
private final class DefectiveStorage: StoreStorage {
    enum Defect { case ignoresWrites, noLocks, trustsKeys, dropsSetAside }

    let defect: Defect
    private let documents = Locked([String: Data]())
    private let keyLocks = Locked([String: NSLock]())

    init(_ defect: Defect) { self.defect = defect }

    func read(_ key: String) throws(StorageError) -> StoredBytes? {
        let key = try checked(key)
        return documents.withLock { $0[key] }.map { StoredBytes($0, location: URL(filePath: "/defective/\(key)")) }
    }

    func transaction<Result>(
        _ key: String, waits: Bool, _ body: (StoredBytes?) throws(StorageError) -> DocumentDecision<Result>
    ) throws(StorageError) -> DocumentCommit<Result>? {
        let key = try checked(key)
        let lock = keyLocks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = NSLock()
            locks[key] = lock
            return lock
        }
        if defect != .noLocks {
            if waits { lock.lock() } else if !lock.try() { return nil }
        }
        defer { if defect != .noLocks { lock.unlock() } }
        let decision = try body(try read(key))
        let change = decision.change
        guard defect != .ignoresWrites else { return DocumentCommit(decision.result) }
        let keptAt: URL? = documents.withLock { documents in
            guard change.settingAside != nil, let bad = documents.removeValue(forKey: key) else { return nil }
            guard defect != .dropsSetAside else { return nil }
            let name = "\(key)~\(UUID().uuidString)"
            documents[name] = bad
            return URL(filePath: "/defective/\(name)")
        }
        if let bytes = change.bytes { documents.withLock { $0[key] = bytes } }
        return DocumentCommit(decision.result, keptAt: keptAt)
    }

    func watch(
        forKey key: String, _ watching: StorageWatching, onChange: @escaping @Sendable () -> Void
    ) throws(StorageError) -> StorageWatch? {
        _ = try checked(key)
        return nil
    }

    private func checked(_ key: String) throws(StorageError) -> String {
        defect == .trustsKeys ? key : try Self.validKey(key)
    }
}
