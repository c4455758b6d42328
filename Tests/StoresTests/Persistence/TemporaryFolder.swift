import Foundation
import Testing

/// A fresh folder under the system temporary directory, removed when `body` returns.
///
/// Each test gets its own, so tests can run in parallel without seeing each other's files.
func withTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// The async form of ``withTemporaryFolder(_:)``.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

private func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "StoresTests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A small store value used across the persistence tests.
struct PersistedCounter: Codable, Sendable, Equatable {
    var count = 0
    var label = "counter"
}

/// The POSIX permission bits of the item at `url`.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
    let value = try #require(attributes[.posixPermissions] as? NSNumber)
    return value.intValue & 0o777
}
