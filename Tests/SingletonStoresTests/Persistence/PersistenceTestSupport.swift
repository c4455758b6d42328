import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

/// Writes the `counter` document of `storage` as a plain document of an earlier version, count
/// `count`: its next write is a new file renamed into place (with a temporary file), not a write
/// in place.
func writePlainCounter(_ count: Int, in storage: FileStorage) throws {
    let plain = try DocumentCoding.encode(PersistedCounter(count: count), key: "counter", store: "PersistedCounter")
    try plain.write(to: storage.fileURL(forKey: "counter"))
}

/// The POSIX permission bits of the item at `url`.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
    let value = try #require(attributes[.posixPermissions] as? NSNumber)
    return value.intValue & 0o777
}

/// Every entry of `folder` by name, with the bytes of the regular files (`nil` for others), to
/// check that a failed call moved, changed and left nothing.
func snapshot(of folder: URL) throws -> [String: Data?] {
    var entries: [String: Data?] = [:]
    // A turnstile file (`<key>.lock-queue`) holds no data and is made by the first writer that
    // has to wait, which on a busy machine can be any writer: it is left out, as is the marker
    // of a folder the library made.
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
    where !name.hasSuffix(".lock-queue") && name != FileStorageFolder.markerName {
        let url = folder.appending(path: name, directoryHint: .notDirectory)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
        let isFile = attributes[.type] as? FileAttributeType == .typeRegular
        entries[name] = isFile ? try Data(contentsOf: url) : nil
    }
    return entries
}
