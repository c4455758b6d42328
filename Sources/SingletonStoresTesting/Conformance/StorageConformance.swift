import Foundation
import Testing

/// Checks that a storage of your own keeps the promises of `StoreStorage`, as the storages that
/// come with the library do.
///
/// Write the storage, then check it in one line of a test:
///
/// ```swift
/// @Test func myStorageKeepsItsPromises() {
///     StorageConformance.check { DictionaryStorage() }
/// }
/// ```
///
/// Each check gets a fresh storage from the closure, and fails the test with an issue that
/// names the check, what went wrong and what to fix; every check runs, so one run shows every
/// problem. The checks (``Check``) cover the bytes — a missing key, invalid keys, a write read
/// back byte for byte, a body that throws, a transaction that changes nothing, a document set
/// aside, a busy key, concurrent writers, a transaction inside another — and the documents on
/// top of them: saving, loading and updating a value, a migration from version 1 to 2, and a
/// bad document set aside and reported.
///
/// Each check uses keys of its own, made new for each run (`conformance-…`), so a closure that
/// returns storages sharing one place — a `FileStorage` of one temporary folder, one database —
/// works too; the documents the checks wrote and set aside stay there.
public enum StorageConformance {
    /// Runs every check, each on a fresh storage from `makeStorage`, and fails the current test
    /// once for each check the storage does not pass.
    ///
    /// The concurrent checks wait for other threads at most a generous bound (a minute): a
    /// storage that deadlocks fails the check instead of stopping the test run.
    ///
    /// - Parameters:
    ///   - sourceLocation: Where the issues are reported; the call's location by default.
    ///   - makeStorage: Makes a storage for one check: an empty one, or one that shares its
    ///     place with the others.
    /// - Returns: The checks that failed, as the test's issues describe them; empty when the
    ///   storage passed them all.
    /// - Throws: What `makeStorage` throws; no check runs after it.
    @discardableResult
    public static func check<Storage: StoreStorage>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeStorage: () throws -> Storage
    ) rethrows -> [Failure] {
        let run = String(UUID().uuidString.prefix(8))
        var failures: [Failure] = []
        for check in Check.allCases where !check.needsSecondInstance {
            let storage = try makeStorage()
            guard let problem = check.run(on: storage, key: "conformance-\(check.rawValue)-\(run)") else { continue }
            let failure = Failure(check: check, problem: problem)
            Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation)
            failures.append(failure)
        }
        return failures
    }
}
