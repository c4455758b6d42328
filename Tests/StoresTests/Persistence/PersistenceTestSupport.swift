import Foundation
import Testing

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
