import Foundation

/// Runs `body` with a fresh folder under the system temporary directory, removed afterwards.
///
/// Each test gets its own, so tests can run in parallel without seeing each other's files.
package func withTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// The async form of ``withTemporaryFolder(_:)``.
package func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Creates a fresh, empty folder under the system temporary directory; the caller removes it.
package func makeTemporaryFolder(prefix: String = "SingletonStoresTests") throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder
}

/// Runs `body` on a thread of its own and waits for it without holding a thread of Swift's
/// cooperative pool: for tests that block for seconds (waiting for child processes), so that
/// tests running in parallel are never starved of threads. A failed expectation inside is still
/// reported, with its source location, and fails the run (Swift Testing cannot tell which test
/// it belongs to, since the thread is not the test's task).
package func runOffThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Swift.Result { try body() })
        }
        thread.start()
    }
}

/// Runs `body` on `threads` threads of their own at once and returns when every one has
/// finished: contention tests, which must not depend on how many threads the cooperative pool has.
/// It blocks the calling thread: call it from a test on a thread of its own (``OwnThreadTrait``)
/// or inside ``runOffThePool(_:)``.
///
/// ```swift
/// onThreads(8) { for _ in 0..<10_000 { store.increment() } }
/// ```
package func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
    let group = DispatchGroup()
    for _ in 0..<threads {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }
    group.wait()
}
