import Foundation

/// Runs `body` with a new, empty folder that only the current user can open (permissions
/// `0700`), and removes the folder and everything in it afterwards.
///
/// Give a test that is about files — or about following another process, which an
/// `InMemoryStorage` does not do — a `FileStorage` of its
/// own in such a folder. Each call makes a folder of its own, so tests running in parallel never
/// see each other's documents:
///
/// ```swift
/// @Test func theFontSizeIsKeptOnDisk() throws {
///     try withTemporaryStoreFolder { folder in
///         try FileStorage(folder: folder).save(20, to: StoreDocument(key: "font-size", default: 17))
///         let reloaded = try FileStorage(folder: folder).load(StoreDocument(key: "font-size", default: 17))
///         #expect(reloaded.value == 20)
///     }
/// }
/// ```
///
/// A folder made with `FileManager.createDirectory` and no attributes is readable by every
/// user of the machine (`0755`); `FileStorage` then reports it as not
/// private. This one is private from the start.
///
/// - Parameter body: Receives the folder's URL.
/// - Returns: What `body` returns.
/// - Throws: The error of creating the folder, or what `body` throws.
public func withTemporaryStoreFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = try makeTemporaryStoreFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Runs an asynchronous `body` with a new, private temporary folder, and removes it afterwards;
/// see `withTemporaryStoreFolder(_:)`.
///
/// - Parameters:
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: Receives the folder's URL.
/// - Returns: What `body` returns.
/// - Throws: The error of creating the folder, or what `body` throws.
public func withTemporaryStoreFolder<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Result
) async throws -> Result {
    let folder = try makeTemporaryStoreFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A new folder, `0700`, under the system's temporary folder.
private func makeTemporaryStoreFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "SingletonStoresTesting-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // The creation mode is filtered by the umask; set it again so that it is exactly 0700.
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
    return folder
}
