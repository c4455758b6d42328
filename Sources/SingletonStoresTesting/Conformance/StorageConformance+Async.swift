import Dispatch
import Foundation
import SingletonStores
import Testing

extension StorageConformance {
    /// Runs the checks that apply to a storage reached with `await` (`AsyncStoreStorage`), each
    /// on a fresh storage from `makeStorage`, and fails the current test once for each check the
    /// storage does not pass.
    ///
    /// ```swift
    /// @Test func myNetworkStorageKeepsItsPromises() async throws {
    ///     try await StorageConformance.check { MyNetworkStorage(server: server) }
    /// }
    /// ```
    ///
    /// The checks are those of ``check(sourceLocation:_:)`` but the nested transaction (a
    /// transaction's body is synchronous and can't await another), and two that need a second
    /// instance of the storage, as another process or machine would have: ``Check/watch`` (a
    /// second instance's commit is heard) and ``Check/lockTimeout`` (while another instance holds
    /// a key, `waits: false` gives up at once and `waits: true` after a bounded wait, with
    /// `StorageError.lockTimedOut`). Those hold the key from a body that blocks a thread of the
    /// check's own, never one of the cooperative pool, in an instance that has not seen the key
    /// before (a storage that decides optimistically takes the key first then).
    ///
    /// - Parameters:
    ///   - sourceLocation: Where the issues are reported; the call's location by default.
    ///   - makeStorage: Makes a storage for one check; called twice for the checks that need two
    ///     instances, which must share their place (one database).
    /// - Returns: The checks that failed; empty when the storage passed them all.
    /// - Throws: What `makeStorage` throws; no check runs after it.
    @discardableResult
    public static func check<Storage: AsyncStoreStorage>(
        sourceLocation: SourceLocation = #_sourceLocation,
        async makeStorage: () async throws -> Storage
    ) async throws -> [Failure] {
        let run = String(UUID().uuidString.prefix(8))
        var failures: [Failure] = []
        for check in Check.allCases where check != .nestedTransaction {
            let key = "conformance-\(check.rawValue)-\(run)"
            let storage = try await makeStorage()
            let other = check.needsSecondInstance ? try await makeStorage() : nil
            guard let problem = await AsyncChecks(storage: storage, other: other, key: key).run(check) else { continue }
            let failure = Failure(check: check, problem: problem)
            Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation)
            failures.append(failure)
        }
        return failures
    }
}

extension StorageConformance.Check {
    /// Whether the check needs a second instance of the storage.
    var needsSecondInstance: Bool { self == .watch || self == .lockTimeout }
}

/// The checks of `StorageConformance.check(sourceLocation:async:)` on a storage reached with
/// `await`.
private struct AsyncChecks<Storage: AsyncStoreStorage> {
    let storage: Storage
    let other: Storage?
    let key: String

    func run(_ check: StorageConformance.Check) async -> String? {
        do throws(ConformanceProblem) {
            switch check {
            case .missingKey: try await missingKey()
            case .invalidKey: try await invalidKey()
            case .committedBytes: try await committedBytes()
            case .throwingBody: try await throwingBody()
            case .noChange: try await noChange()
            case .settingAside: try await settingAside()
            case .busyKey, .lockTimeout: try await heldByAnother(timingOut: check == .lockTimeout)
            case .concurrentTransactions: try await concurrentTransactions()
            case .nestedTransaction: break
            case .documents: try await documents()
            case .migration, .badDocument: try await documents()
            case .watch: try await watch()
            }
            return nil
        } catch {
            return error.text
        }
    }

    private func stored() async throws(ConformanceProblem) -> StoredBytes? {
        do { return try await storage.read(key) } catch { throw ConformanceProblem(text: "read(_:) threw “\(error)”") }
    }

    private func write(_ bytes: Data, to storage: Storage? = nil) async throws(ConformanceProblem) {
        do {
            _ = try await (storage ?? self.storage).transaction(key, waits: true) { _ in
                DocumentDecision((), change: DocumentChange(bytes: bytes))
            }
        } catch {
            throw ConformanceProblem(text: "a transaction that writes \(bytes.count) bytes threw “\(error)”")
        }
    }

    func missingKey() async throws(ConformanceProblem) {
        let read = try await stored()
        try require(read == nil, "read(_:) of a key never written gave \(read?.bytes.count ?? 0) bytes")
        var ran = false
        var given: StoredBytes?
        do {
            _ = try await storage.transaction(key, waits: true) { current in
                ran = true
                given = current
                return DocumentDecision(())
            }
        } catch {
            throw ConformanceProblem(text: "a transaction on a key never written threw “\(error)”")
        }
        try require(ran && given == nil, "a transaction on a key never written was given bytes, or its body did not run")
    }

    func invalidKey() async throws(ConformanceProblem) {
        for invalid in ["", "../outside", "a/b", ".hidden", "with space"] {
            var refused = false
            do { _ = try await storage.read(invalid) } catch { refused = error.isInvalidKey }
            try require(refused, "read(\"\(invalid)\") did not throw StorageError.invalidKey")
            refused = false
            var ran = false
            do {
                _ = try await storage.transaction(invalid, waits: true) { _ in
                    ran = true
                    return DocumentDecision(())
                }
            } catch { refused = error.isInvalidKey }
            try require(refused && !ran, "transaction(\"\(invalid)\", waits: true) did not refuse the key before its body")
            refused = false
            do { try await storage.watch(forKey: invalid, onChange: {})?.cancel() } catch { refused = error.isInvalidKey }
            try require(refused, "watch(forKey: \"\(invalid)\") did not throw StorageError.invalidKey")
        }
    }

    func committedBytes() async throws(ConformanceProblem) {
        let sample = Data((0...255).map { UInt8($0) }) + Data("\r\n…a document ✓\0".utf8)
        for bytes in [sample, Data("a second, shorter document".utf8)] {
            try await write(bytes)
            let read = try await stored()
            try require(read?.bytes == bytes, "after committing \(bytes.count) bytes, read(_:) gave \(read?.bytes.count ?? 0)")
        }
    }

    func throwingBody() async throws(ConformanceProblem) {
        try await write(Data("before".utf8))
        let thrown = StorageError.encodingFailed(key: key, reason: "thrown by the conformance check")
        do {
            _ = try await storage.transaction(key, waits: true) { (_) throws(StorageError) -> DocumentDecision<Void> in
                throw thrown
            }
            throw ConformanceProblem(text: "a transaction whose body threw returned")
        } catch let error as StorageError {
            try require(error == thrown, "a transaction whose body threw threw “\(error)” instead")
        } catch let problem as ConformanceProblem {
            throw problem
        } catch {}
        let read = try await stored()
        try require(read?.bytes == Data("before".utf8), "a body that threw changed the document")
        try await write(Data("after".utf8))
    }

    func noChange() async throws(ConformanceProblem) {
        try await write(Data("kept".utf8))
        var result: Int?
        do {
            result = try await storage.transaction(key, waits: true) { _ in DocumentDecision(7) }?.result
        } catch { throw ConformanceProblem(text: "a transaction that changes nothing threw “\(error)”") }
        try require(result == 7, "a transaction's result did not come back")
        try require(try await stored()?.bytes == Data("kept".utf8), "DocumentChange.none changed the document")
    }

    func settingAside() async throws(ConformanceProblem) {
        try await write(Data("bad".utf8))
        var kept: URL?
        do {
            kept = try await storage.transaction(key, waits: true) { _ in
                DocumentDecision(
                    (), change: DocumentChange(bytes: Data("new".utf8), settingAside: .corrupted(reason: "a check")))
            }?.keptAt
        } catch { throw ConformanceProblem(text: "setting a document aside threw “\(error)”") }
        try require(kept != nil, "setting a document aside gave no keptAt")
        try require(try await stored()?.bytes == Data("new".utf8), "after setting aside, the new bytes are not there")
    }

    func concurrentTransactions() async throws(ConformanceProblem) {
        try await write(Data("0".utf8))
        let storage = storage
        let key = key
        let writers = 8
        let failures = await withTaskGroup(of: String?.self) { group -> [String] in
            for _ in 0..<writers {
                group.addTask {
                    do {
                        _ = try await storage.transaction(key, waits: true) { current in
                            let count = Int(String(decoding: current?.bytes ?? Data(), as: UTF8.self)) ?? -1_000
                            return DocumentDecision((), change: DocumentChange(bytes: Data("\(count + 1)".utf8)))
                        }
                        return nil
                    } catch { return "\(error)" }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        try require(failures.isEmpty, "a concurrent transaction threw “\(failures.first ?? "")”")
        let final = try await stored().map { String(decoding: $0.bytes, as: UTF8.self) }
        try require(final == "\(writers)", "\(writers) concurrent increments left \(final ?? "nothing")")
    }

    func documents() async throws(ConformanceProblem) {
        let document = StoreDocument(key: key, default: [String: Int]())
        do {
            try await storage.save(["a": 1], to: document)
            try await storage.update(document) { $0["b"] = 2 }
            let loaded = try await storage.load(document)
            try require(loaded.value == ["a": 1, "b": 2] && loaded.isStored, "a document read back as \(loaded.value)")
        } catch let problem as ConformanceProblem {
            throw problem
        } catch {
            throw ConformanceProblem(text: "saving, updating or loading a document threw “\(error)”")
        }
    }

    func watch() async throws(ConformanceProblem) {
        guard let other else { return }
        let heard = DispatchSemaphore(value: 0)
        let watch: StorageWatch?
        do { watch = try await storage.watch(forKey: key) { heard.signal() } } catch {
            throw ConformanceProblem(text: "watch(forKey:onChange:) threw “\(error)”")
        }
        guard let watch else { return }  // a storage that does not follow other writers
        defer { watch.cancel() }
        let committed = Data("from another instance".utf8)
        try await write(committed, to: other)
        let waited = await ConformanceThread.run { heard.wait(timeout: .now() + .seconds(60)) == .success }
        try require(waited, "a commit of another instance was not heard within a minute")
        let read: StoredBytes?
        do { read = try await storage.readHeard(key) } catch {
            throw ConformanceProblem(text: "readHeard(_:) after the watch was called threw “\(error)”")
        }
        try require(
            read?.bytes == committed,
            "readHeard(_:) after another instance's commit was heard did not return what it committed")
    }

    /// Another instance holds the key in a transaction whose body blocks a thread of the
    /// check's own; meanwhile `waits: false` must give up at once and, with `timingOut`,
    /// `waits: true` after the storage's bounded wait, with `lockTimedOut`.
    func heldByAnother(timingOut: Bool) async throws(ConformanceProblem) {
        guard let other else { return }
        try await write(Data("held".utf8))
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let key = key
        let holder = Task(executorPreference: ConformanceThread.executor) {
            _ = try? await other.transaction(key, waits: true) { _ in
                entered.signal()
                // Held until the check lets go (on every way out of it, by the `defer` below),
                // not for a set time: on a loaded machine the check's own steps can take minutes,
                // and a hold that ended first would hand the key to the transaction that must
                // time out. This thread is the check's own, not one of the cooperative pool's.
                release.wait()
                return DocumentDecision(())
            }
        }
        defer {
            release.signal()
        }
        let inside = await ConformanceThread.run { entered.wait(timeout: .now() + .seconds(60)) == .success }
        try require(inside, "another instance's transaction did not start within a minute")
        var ran = false
        do {
            let result = try await storage.transaction(key, waits: false) { _ in
                ran = true
                return DocumentDecision(())
            }
            try require(result == nil && !ran, "with waits: false, a transaction of a key another instance holds ran")
        } catch let problem as ConformanceProblem {
            throw problem
        } catch {
            throw ConformanceProblem(text: "with waits: false on a held key, the transaction threw “\(error)”, not nil")
        }
        if timingOut {
            do {
                _ = try await storage.transaction(key, waits: true) { _ in
                    ran = true
                    return DocumentDecision(())
                }
                throw ConformanceProblem(text: "with waits: true, a transaction of a key another instance held to the end ran")
            } catch let error as StorageError {
                guard case .lockTimedOut = error else {
                    throw ConformanceProblem(
                        text: "with waits: true on a held key, the transaction threw “\(error)”, not lockTimedOut")
                }
            } catch let problem as ConformanceProblem {
                throw problem
            } catch {}
        }
        release.signal()
        await holder.value
    }
}

extension StorageError {
    fileprivate var isInvalidKey: Bool { if case .invalidKey = self { true } else { false } }
}

/// A thread of the checks' own, so that a body that blocks while it holds a key, or a wait for a
/// semaphore, never takes a thread of the cooperative pool.
enum ConformanceThread {
    /// Runs the tasks that prefer it, each job on a thread of its own.
    static let executor = ThreadPerJobExecutor()

    /// Runs `body`, which may block, on a thread of its own; suspends until it returns.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}

/// A task executor that runs each job on a new thread of its own. A job of a task that prefers it
/// never waits for a pool: not the cooperative pool, and not dispatch's, whose threads (as many as
/// the cores) other code of a loaded test run may hold blocked for minutes, as the bodies of the
/// checks that hold a key do for the length of a lock timeout.
final class ThreadPerJobExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
