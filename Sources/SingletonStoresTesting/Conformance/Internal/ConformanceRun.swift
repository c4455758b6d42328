import Foundation
import SingletonStoresLocking

/// What went wrong in a check, as a clause: "read gave 3 bytes, not the 264 committed".
struct ConformanceProblem: Error {
    let text: String
}

extension StorageConformance.Check {
    /// Runs the check on `storage`, using `key` (and names made from it); what went wrong, or
    /// `nil` when the storage passed.
    func run<Storage: StoreStorage>(on storage: Storage, key: String) -> String? {
        let bytes = ByteChecks(storage: storage, key: key)
        let documents = DocumentChecks(storage: storage, key: key)
        do throws(ConformanceProblem) {
            switch self {
            case .missingKey: try bytes.missingKey()
            case .invalidKey: try bytes.invalidKey()
            case .committedBytes: try bytes.committedBytes()
            case .throwingBody: try bytes.throwingBody()
            case .noChange: try bytes.noChange()
            case .settingAside: try bytes.settingAside()
            case .busyKey: try ThreadChecks(bytes: bytes).busyKey()
            case .concurrentTransactions: try ThreadChecks(bytes: bytes).concurrentTransactions()
            case .nestedTransaction: try ThreadChecks(bytes: bytes).nestedTransaction()
            case .documents: try documents.saveLoadUpdate()
            case .migration: try documents.migration()
            case .badDocument: try documents.badDocument()
            case .watch, .lockTimeout: break  // checked on storages reached with `await`
            }
            return nil
        } catch {
            return error.text
        }
    }
}

/// Fails the check with `problem` unless `condition` holds.
func require(_ condition: Bool, _ problem: @autoclosure () -> String) throws(ConformanceProblem) {
    if !condition { throw ConformanceProblem(text: problem()) }
}

/// What `body` returns; when it throws, fails the check saying that `what` threw.
func attempt<Result>(_ what: String, _ body: () throws(StorageError) -> Result) throws(ConformanceProblem) -> Result {
    do {
        return try body()
    } catch {
        throw ConformanceProblem(text: "\(what) threw “\(error)”")
    }
}

/// A value shared by the threads of a check.
final class SharedValue<Value: Sendable>: Sendable {
    private let state: Locked<Value>

    init(_ value: Value) {
        state = Locked(value)
    }

    /// Runs `body` on the value, alone.
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    /// The value now.
    var value: Value { state.withLock { $0 } }
}

/// The bounds of the concurrent checks' waits: generous, so that they are reached only by a
/// storage that waits for ever.
enum ConformanceWait {
    /// How long a thread of a check may take: a minute.
    static let bound: DispatchTimeInterval = .seconds(60)
    /// How long a transaction that must not wait may take: ten seconds.
    static let atOnce: DispatchTimeInterval = .seconds(10)

    /// Waits for `semaphore` at most `interval`; whether it was signalled.
    static func wait(for semaphore: DispatchSemaphore, atMost interval: DispatchTimeInterval = bound) -> Bool {
        semaphore.wait(timeout: .now() + interval) == .success
    }

    /// Starts `body` on a thread of its own; the semaphore it signals when it is done.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }
}
